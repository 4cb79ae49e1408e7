package gitrepo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// Dirty lists the files under rel (slash path relative to the work tree, ""
// for all) that differ from HEAD — changed, new and not ignored, or
// deleted — each with the blob hash of its current content ("" when it is
// gone). Comparing two Dirty maps tells which files a step changed, so a
// commit can hold that step's files and leave a person's pending edits
// alone.
func (r *Repo) Dirty(rel string) (map[string]string, error) {
	wt, err := r.repo.Worktree()
	if err != nil {
		return nil, fmt.Errorf("open work tree: %w", err)
	}
	wt.Excludes = r.excludes()
	st, err := wt.Status()
	if err != nil {
		return nil, fmt.Errorf("read status: %w", err)
	}
	out := map[string]string{}
	for name, fs := range st {
		if !under(name, rel) {
			continue
		}
		if fs.Worktree == git.Unmodified && fs.Staging == git.Unmodified {
			continue
		}
		p := filepath.Join(r.root, filepath.FromSlash(name))
		if fi, err := os.Lstat(p); err == nil && r.tooLarge(fi) {
			// Not versioned (see BoundFiles): changed when its size or
			// time changes, never hashed.
			out[name] = fmt.Sprintf("too-large:%d:%d", fi.Size(), fi.ModTime().UnixNano())
			continue
		}
		data, err := safefs.ReadFile(p, *r.bound())
		switch {
		case errors.Is(err, os.ErrNotExist):
			out[name] = ""
		case err != nil:
			return nil, fmt.Errorf("read %s: %w", name, err)
		default:
			out[name] = plumbing.ComputeHash(plumbing.BlobObject, data).String()
		}
	}
	return out, nil
}

// Tracks reports whether HEAD holds any file under rel (a slash path
// relative to the work tree).
func (r *Repo) Tracks(rel string) (bool, error) {
	head, err := r.repo.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read HEAD: %w", err)
	}
	c, err := r.repo.CommitObject(head.Hash())
	if err != nil {
		return false, fmt.Errorf("read HEAD: %w", err)
	}
	t, err := c.Tree()
	if err != nil {
		return false, fmt.Errorf("read HEAD tree: %w", err)
	}
	if rel == "" {
		return len(t.Entries) > 0, nil
	}
	found := false
	errStop := errors.New("stop")
	err = eachFile(t, rel, func(string, plumbing.Hash) error {
		found = true
		return errStop
	})
	if err != nil && !errors.Is(err, errStop) {
		return false, fmt.Errorf("read HEAD tree: %w", err)
	}
	return found, nil
}
