package longterm

import (
	"errors"
	"fmt"
	"time"
)

// Change runs fn, then commits what it changed in the long-term memory as
// one commit naming action, with the history mode (long.git) given (also
// when fn failed after writing, as a refused truth leaves its pending
// file). A commit that cannot be made is a warning through warn, never
// the change's failure: the change itself is made and `memhook night`
// commits it later. An inactive memory only runs fn.
func (s *Store) Change(mode, action string, now func() time.Time, warn func(string), fn func() error) error {
	h, err := s.History(mode, now())
	if err != nil {
		if !errors.Is(err, ErrInactive) {
			warn(fmt.Sprintf("%s: no commit: %v", action, err))
		}
		return fn()
	}
	if h.Refused != nil {
		warn(fmt.Sprintf("%s: no commit: %s", action, h.Note))
	}
	before, err := h.Snapshot()
	if err != nil {
		warn(fmt.Sprintf("%s: no commit: %v", action, err))
		return fn()
	}
	ferr := fn()
	if _, _, err := h.Commit(before, action, now()); err != nil {
		warn(fmt.Sprintf("%v (the change is made; `memhook night` commits it later)", err))
	}
	return ferr
}
