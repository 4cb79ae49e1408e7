package search

import (
	"context"
	"fmt"
	"io"
	"time"
)

// UpdateText is [Memory.Update] as `memhook index` prints it: one line per
// root's index on out; on a terminal a progress counter on errw; a warning
// on errw when embeddings failed. Memory with no folder yet says so on out
// and indexes nothing.
func (m *Memory) UpdateText(ctx context.Context, now time.Time, out, errw io.Writer, terminal bool) error {
	if len(m.Existing()) == 0 {
		fmt.Fprintln(out, "no memory folders yet; nothing to index")
		return nil
	}
	var progress func(r Root, done, total int)
	if terminal {
		progress = func(r Root, done, total int) {
			if done == total || done%50 == 0 {
				fmt.Fprintf(errw, "\rindexing %s: %d/%d files", r.Dir, done, total)
			}
		}
	}
	return m.Update(ctx, now, progress, func(rep RootReport) {
		if terminal && rep.Stats.Indexed > 0 {
			fmt.Fprintln(errw)
		}
		if rep.Err != nil {
			return
		}
		fmt.Fprintln(out, rep.Line(m.Base))
		if rep.Stats.EmbedErr != nil {
			fmt.Fprintf(errw, "memhook: warning: %v; search stays text-only until the provider answers\n", rep.Stats.EmbedErr)
		}
	})
}
