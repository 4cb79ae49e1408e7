package gitrepo

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// Writing a sync's result into the work tree and the index.

// stage sets the index entries of paths to files' (or removes them),
// with the size and time of the file on disk, so the files read as clean.
// Unlike go-git's Add it never reads a file: its blob is known.
func (r *Repo) stage(paths []string, files map[string]entry) error {
	if len(paths) == 0 {
		return nil
	}
	idx, err := r.repo.Storer.Index()
	if err != nil {
		return fmt.Errorf("read the index: %w", err)
	}
	for _, p := range paths {
		e, keep := files[p]
		if !keep {
			if _, err := idx.Remove(p); err != nil && !errors.Is(err, index.ErrEntryNotFound) {
				return fmt.Errorf("update the index for %s: %w", p, err)
			}
			continue
		}
		fi, err := safefs.Lstat(filepath.Join(r.root, filepath.FromSlash(p)))
		if err != nil {
			return fmt.Errorf("update the index for %s: %w", p, err)
		}
		ie, err := idx.Entry(p)
		if err != nil {
			ie = idx.Add(p)
		}
		ie.Hash, ie.Mode, ie.Size, ie.ModifiedAt = e.hash, e.mode, uint32(fi.Size()), fi.ModTime()
	}
	if err := r.repo.Storer.SetIndex(idx); err != nil {
		return fmt.Errorf("write the index: %w", err)
	}
	return nil
}

// checkout writes the tree's file p into the work tree, streamed from its
// blob (never held whole in memory), or removes it when files lack it.
func (r *Repo) checkout(p string, files map[string]entry) error {
	abs := filepath.Join(r.root, filepath.FromSlash(p))
	e, keep := files[p]
	if !keep {
		d, err := safefs.OpenDir(r.root, filepath.Dir(abs), false)
		if err != nil {
			return fmt.Errorf("remove %s: %w", p, err)
		}
		err = d.Remove(filepath.Base(abs))
		d.Close()
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", p, err)
		}
		return nil
	}
	b, err := r.repo.BlobObject(e.hash)
	if err != nil {
		return fmt.Errorf("read %s: %w", p, err)
	}
	rd, err := b.Reader()
	if err != nil {
		return fmt.Errorf("read %s: %w", p, err)
	}
	defer rd.Close()
	d, err := safefs.OpenDir(r.root, filepath.Dir(abs), true)
	if err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	d.Close()
	perm := os.FileMode(0o644)
	if e.mode == filemode.Executable {
		perm = 0o755
	}
	n, err := atomicfile.WriteFrom(abs, io.LimitReader(rd, b.Size), perm)
	if err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	if n != b.Size {
		return fmt.Errorf("write %s: the blob held %d of its %d bytes", p, n, b.Size)
	}
	return nil
}
