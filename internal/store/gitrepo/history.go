package gitrepo

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/go-git/go-git/v5/plumbing"
	fdiff "github.com/go-git/go-git/v5/plumbing/format/diff"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// pathPatch is a patch narrowed to the files under one path.
type pathPatch struct {
	files []fdiff.FilePatch
}

func (p pathPatch) FilePatches() []fdiff.FilePatch { return p.files }
func (p pathPatch) Message() string                { return "" }

func under(p, rel string) bool { return rel == "" || p == rel || strings.HasPrefix(p, rel+"/") }

// treeOf returns the tree of a revision; "" or an unknown parent gives nil
// (the empty tree).
func (r *Repo) treeOf(rev string) (*object.Tree, error) {
	if rev == "" {
		return nil, nil
	}
	c, err := r.commit(rev)
	if err != nil {
		return nil, err
	}
	return c.Tree()
}

func (r *Repo) relPath(path string) (string, error) {
	if path == "" || !filepath.IsAbs(path) {
		return strings.Trim(filepath.ToSlash(path), "/"), nil
	}
	return r.Rel(path)
}

// Diff returns the unified diff of the files under path between two
// revisions (from "" means the empty tree, e.g. before the first commit).
func (r *Repo) Diff(path, from, to string) (string, error) {
	rel, err := r.relPath(path)
	if err != nil {
		return "", err
	}
	a, err := r.treeOf(from)
	if err != nil {
		return "", err
	}
	b, err := r.treeOf(to)
	if err != nil {
		return "", err
	}
	changes, err := object.DiffTree(a, b)
	if err != nil {
		return "", fmt.Errorf("diff %s..%s: %w", from, to, err)
	}
	patch, err := changes.Patch()
	if err != nil {
		return "", fmt.Errorf("diff %s..%s: %w", from, to, err)
	}
	var keep []fdiff.FilePatch
	for _, fp := range patch.FilePatches() {
		f, t := fp.Files()
		if f != nil && under(f.Path(), rel) || t != nil && under(t.Path(), rel) {
			keep = append(keep, fp)
		}
	}
	var buf bytes.Buffer
	if err := fdiff.NewUnifiedEncoder(&buf, fdiff.DefaultContextLines).Encode(pathPatch{keep}); err != nil {
		return "", fmt.Errorf("encode diff: %w", err)
	}
	return buf.String(), nil
}

// Parent returns the first parent of a revision, or "" for a root commit.
func (r *Repo) Parent(rev string) (string, error) {
	c, err := r.commit(rev)
	if err != nil {
		return "", err
	}
	if c.NumParents() == 0 {
		return "", nil
	}
	return c.ParentHashes[0].String(), nil
}

// filesAt lists the files under rel in a revision's tree with their content.
func (r *Repo) filesAt(rev, rel string) (map[string][]byte, error) {
	out := map[string][]byte{}
	t, err := r.treeOf(rev)
	if err != nil || t == nil {
		return out, err
	}
	err = eachFile(t, rel, func(name string, h plumbing.Hash) error {
		blob, err := r.repo.BlobObject(h)
		if err != nil {
			return err
		}
		rd, err := blob.Reader()
		if err != nil {
			return err
		}
		defer rd.Close()
		b, err := io.ReadAll(rd)
		out[name] = b
		return err
	})
	return out, err
}

// RestorePath makes the files under path what they were at rev — writing
// the old files back and removing files that did not exist then — and
// commits that as a new commit. History is never rewritten: the undone
// version stays reachable.
func (r *Repo) RestorePath(path, rev, message string, when time.Time) (string, error) {
	rel, err := r.relPath(path)
	if err != nil {
		return "", err
	}
	if rel == "" {
		return "", errors.New("restore: refusing to restore the whole work tree")
	}
	old, err := r.filesAt(rev, rel)
	if err != nil {
		return "", fmt.Errorf("restore %s at %s: %w", rel, rev, err)
	}
	head, err := r.repo.Head()
	if err != nil && !errors.Is(err, plumbing.ErrReferenceNotFound) {
		return "", fmt.Errorf("read HEAD: %w", err)
	}
	cur := map[string][]byte{}
	if head != nil {
		if cur, err = r.filesAt(head.Hash().String(), rel); err != nil {
			return "", err
		}
	}
	var paths []string
	for name := range cur {
		if _, keep := old[name]; !keep {
			if err := safefs.Remove(filepath.Join(r.root, filepath.FromSlash(name))); err != nil {
				return "", fmt.Errorf("restore: remove %s: %w", name, err)
			}
			paths = append(paths, name)
		}
	}
	for name, data := range old {
		abs := filepath.Join(r.root, filepath.FromSlash(name))
		if err := safefs.MkdirAll(filepath.Dir(abs)); err != nil {
			return "", err
		}
		// A revert never writes through a link planted where a page was.
		if err := atomicfile.Write(abs, data, 0o644); err != nil {
			return "", fmt.Errorf("restore: write %s: %w", name, err)
		}
		paths = append(paths, name)
	}
	return r.CommitPaths(paths, message, when)
}
