package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// A search from the command line must be fresh without walking the whole
// memory each time (the walk alone cost ~20 ms on 7,000 notes, more than
// the search). Creating, deleting or renaming a file — and every atomic
// save, which renames — changes its folder's modification time, so
// Refresh stats the folders the last full walk saw. An edit in place
// changes only the file's own time, so it also stats the files edited
// most recently (what is being worked on: today's daily file, the page
// open in an editor) and a slice of the others that rotates with the
// clock, so that every file is looked at every few minutes of searching.
const (
	hotFiles     = 64  // the most recently modified files, checked every time
	rotatedFiles = 512 // others, a different slice each second
)

// Refresh brings the index up to date as [Index.Update] does, cheaply
// when it can: if every folder the last complete update saw still has its
// modification time, only the recent and a rotating slice of the other
// files are checked and those changed are read again; otherwise (or when
// there is no complete update yet) it is a full Update.
func (ix *Index) Refresh(ctx context.Context, now time.Time) (UpdateStats, error) {
	dirs, err := ix.storedDirs()
	if err != nil || len(dirs) == 0 {
		return ix.Update(ctx, now, nil)
	}
	for d, m := range dirs {
		fi, err := os.Lstat(filepath.Join(ix.Root.Dir, filepath.FromSlash(d)))
		if err != nil || !fi.IsDir() || fi.ModTime().UnixNano() != m {
			return ix.Update(ctx, now, nil)
		}
	}
	var total int
	if err := ix.db.QueryRow(`SELECT count(*) FROM files WHERE root=?`, ix.id).Scan(&total); err != nil {
		return UpdateStats{}, fmt.Errorf("refresh index of %s: %w", ix.Root.Dir, err)
	}
	offset := 0
	if total > 0 {
		offset = int(now.Unix()*rotatedFiles) % total
	}
	rows, err := ix.db.Query(`
		SELECT path, mtime, size, hash FROM (SELECT path, mtime, size, hash FROM files WHERE root=?1 ORDER BY mtime DESC LIMIT ?2)
		UNION
		SELECT path, mtime, size, hash FROM (SELECT path, mtime, size, hash FROM files WHERE root=?1 ORDER BY path LIMIT ?3 OFFSET ?4)
		UNION
		SELECT path, mtime, size, hash FROM (SELECT path, mtime, size, hash FROM files WHERE root=?1 ORDER BY path LIMIT max(0, ?5 - ?6))`,
		ix.id, hotFiles, rotatedFiles, offset, offset+rotatedFiles, total)
	if err != nil {
		return UpdateStats{}, fmt.Errorf("refresh index of %s: %w", ix.Root.Dir, err)
	}
	type stale struct {
		rel  string
		disk fileState
		hash string
		gone bool
	}
	var todo []stale
	for rows.Next() {
		var rel string
		var s fileState
		if err := rows.Scan(&rel, &s.mtime, &s.size, &s.hash); err != nil {
			rows.Close()
			return UpdateStats{}, fmt.Errorf("refresh index of %s: %w", ix.Root.Dir, err)
		}
		fi, err := os.Lstat(filepath.Join(ix.Root.Dir, filepath.FromSlash(rel)))
		switch {
		case err != nil || !fi.Mode().IsRegular():
			todo = append(todo, stale{rel: rel, gone: true})
		case fi.ModTime().UnixNano() != s.mtime || fi.Size() != s.size:
			todo = append(todo, stale{rel: rel, disk: fileState{mtime: fi.ModTime().UnixNano(), size: fi.Size()}, hash: s.hash})
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return UpdateStats{}, fmt.Errorf("refresh index of %s: %w", ix.Root.Dir, err)
	}
	st := UpdateStats{Files: total, Complete: true}
	if len(todo) > 0 {
		w, err := ix.begin()
		if err != nil {
			return st, err
		}
		defer w.rollback()
		for i, t := range todo {
			if ctx.Err() != nil {
				st.Pending, st.Complete = len(todo)-i, false
				break
			}
			if t.gone {
				if err := w.deleteFile(t.rel, true); err != nil {
					return st, err
				}
				st.Removed++
				continue
			}
			n, err := ix.indexFile(w, t.rel, t.disk, t.hash, now)
			if err != nil {
				return st, err
			}
			if n >= 0 {
				st.Indexed++
				st.Chunks += n
			}
		}
		if err := w.counts(); err != nil {
			return st, fmt.Errorf("refresh index of %s: %w", ix.Root.Dir, err)
		}
		if err := w.commit(); err != nil {
			return st, err
		}
	}
	if ix.params.Embedder != nil && ctx.Err() == nil {
		st.EmbedErr = ix.embedMissing(ctx)
	}
	return st, nil
}
