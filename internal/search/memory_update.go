package search

import (
	"context"
	"path/filepath"
	"time"
)

// RootReport is what [Memory.Update] did to one root's index.
type RootReport struct {
	Root          Root
	Stats         UpdateStats
	Files, Chunks int  // what the index holds after the update
	Rebuilt       bool // the index was new, or its chunking, tokenizer or model changed
	Err           error
}

// Update brings the index of every existing root up to date, one after
// another: progress, when not nil, hears each file examined; each hears
// every root's report as it finishes, a failed one included, after which
// Update stops with that error.
func (m *Memory) Update(ctx context.Context, now time.Time, progress func(r Root, done, total int), each func(RootReport)) error {
	for _, r := range m.Existing() {
		ix, err := Open(m.IndexDir, r, m.Params)
		if err != nil {
			return err
		}
		var p func(done, total int)
		if progress != nil {
			p = func(done, total int) { progress(r, done, total) }
		}
		st, err := ix.Update(ctx, now, p)
		rep := RootReport{Root: r, Stats: st, Rebuilt: ix.Rebuilt}
		if err == nil {
			rep.Files, rep.Chunks, err = ix.Stats()
		}
		ix.Close()
		rep.Err = err
		each(rep)
		if err != nil {
			return err
		}
	}
	return nil
}

// IndexFile reads one file of one of the roots again into its index (a
// daily file a flush just wrote): the rest of the root waits for the next
// update. A file outside the roots is none of this memory's.
func (m *Memory) IndexFile(ctx context.Context, file string, now time.Time) error {
	for _, r := range m.Roots {
		rel, in := within(r.Dir, file)
		if !in {
			continue
		}
		ix, err := Open(m.IndexDir, r, m.Params)
		if err != nil {
			return err
		}
		defer ix.Close()
		return ix.indexOne(ctx, filepath.ToSlash(rel), now)
	}
	return nil
}

// Forget reads the file at rel under the root dir again (or drops it) in
// that root's index, so the next search cannot return the text a forget
// took away. A dir that is none of the roots has no index to change.
func (m *Memory) Forget(ctx context.Context, dir, rel string, now time.Time) error {
	for _, r := range m.Roots {
		if filepath.Clean(r.Dir) != filepath.Clean(dir) {
			continue
		}
		ix, err := Open(m.IndexDir, r, m.Params)
		if err != nil {
			return err
		}
		defer ix.Close()
		return ix.Forget(ctx, rel, now)
	}
	return nil
}
