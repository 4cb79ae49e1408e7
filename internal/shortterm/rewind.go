package shortterm

import (
	"fmt"

	"github.com/cerebro-mem/cerebro/internal/shortterm/capture"
)

// Rewind takes a session back to its last flush ([capture.Session.Rewind])
// after settling a section write a dead flusher left half done, and
// returns the state it left: `memhook import`, killed in the middle of a
// session, replays it from there. noteBytes bounds the read of the daily
// file that settles the write.
func Rewind(x *capture.Session, noteBytes int64) (capture.State, error) {
	var out capture.State
	err := x.Update(func(st *capture.State) error {
		if err := finishIntent(x, st, noteBytes); err != nil {
			return err
		}
		if err := x.Rewind(st); err != nil {
			return err
		}
		out = *st
		return nil
	})
	if err != nil {
		return out, fmt.Errorf("rewind session %s: %w", x.ID, err)
	}
	return out, nil
}
