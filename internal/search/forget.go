package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Forget brings one file of the root up to date in the index at once —
// read again if it is still there, dropped if it is gone — so that the
// next search cannot return what `memhook forget` took out of it, however
// far behind a budgeted update left the rest. The deleted rows are
// overwritten (secure_delete) and the full-text index is merged, so the
// forgotten words are not left in the database file either. rel is slash
// separated, relative to the root.
func (ix *Index) Forget(ctx context.Context, rel string, now time.Time) error {
	conn, err := ix.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("forget %s in the index: %w", rel, err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA secure_delete = ON`); err != nil {
		return fmt.Errorf("forget %s in the index: %w", rel, err)
	}
	defer conn.ExecContext(context.Background(), `PRAGMA secure_delete = OFF`)
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("forget %s in the index: %w", rel, err)
	}
	w := &writer{tx: tx, root: ix.id}
	defer w.rollback()
	fi, err := os.Lstat(filepath.Join(ix.Root.Dir, filepath.FromSlash(rel)))
	if err == nil && fi.Mode().IsRegular() {
		// No old hash: the file is read again and its old chunks replaced.
		if _, err := ix.indexFile(w, rel, fileState{mtime: fi.ModTime().UnixNano(), size: fi.Size()}, "", now); err != nil {
			return err
		}
	} else if err := w.deleteFile(rel, true); err != nil {
		return err
	}
	if err := w.counts(); err != nil {
		return fmt.Errorf("forget %s in the index: %w", rel, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO chunks_fts(chunks_fts) VALUES('optimize')`); err != nil {
		return fmt.Errorf("forget %s in the index: merge: %w", rel, err)
	}
	return w.commit()
}
