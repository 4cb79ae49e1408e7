package gitrepo

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// What a sync takes from a remote. A remote's history may hold any path;
// a copy of memory takes only what its kind of memory holds. The rule is
// cerebro's own and fixed here, never read from the work tree: the desk's
// .gitignore once decided what a sync took, and the remote itself can
// change that file.

// Kind is a kind of memory a repository holds (the org vault, a project's
// long-term memory): the paths a sync from a remote may write into its
// work tree.
type Kind struct {
	// Name says what the repository is, in a refusal: "an org vault".
	Name string
	// DotDirs are the hidden folders at the top of the tree the kind holds
	// (.trash, where pages are moved); every other hidden file or folder,
	// at any depth, is not the kind's.
	DotDirs []string
}

// keptFiles are the kind's files a sync never takes from a remote and
// never names: each copy keeps its own (cerebro writes it), whatever the
// remote's history says. A .gitignore decides what a person's `git add`
// takes, so a remote's must not reach the desk.
var keptFiles = []string{".gitignore"}

// instructionFiles are what Claude Code reads as instructions in any
// session opened in the folder: never memory taken from a remote.
var instructionFiles = []string{"claude.md", "claude.local.md"}

// refuses says why the kind does not hold the tree path p, "" when it
// does. A kept file ([keptFiles]) is held.
func (k Kind) refuses(p string) string {
	if !safeTreePath(p) {
		return "a path cerebro never writes"
	}
	parts := strings.Split(p, "/")
	for i, part := range parts {
		last := i == len(parts)-1
		switch {
		case last && (part == ".gitkeep" || i == 0 && slices.Contains(keptFiles, part)):
		case last && slices.Contains(instructionFiles, strings.ToLower(part)):
			return "instructions Claude Code would follow in the desk; " + k.Name + " holds none"
		case strings.HasPrefix(part, ".git"):
			return "git's own configuration; never taken from a remote"
		case strings.HasPrefix(part, ".") && !(i == 0 && !last && slices.Contains(k.DotDirs, part)):
			return "a hidden file or folder; " + k.Name + " holds none"
		}
	}
	return ""
}

// kept reports whether p is one of the kind's own files a sync leaves as
// each copy has it.
func kept(p string) bool { return slices.Contains(keptFiles, p) }

// takes says why a sync does not write the tree entry e at p into the
// work tree, "" when it does: the kind must hold the path, the entry must
// be a regular file, and its blob must fit the repository's file bound.
func (r *Repo) takes(k Kind, p string, e entry) (string, error) {
	if why := k.refuses(p); why != "" {
		return why, nil
	}
	if !plainFile(e.mode) {
		return "not a regular file (a link, a submodule); never taken from a remote", nil
	}
	size, err := r.blobSize(e.hash)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", p, err)
	}
	if max := *r.bound(); size > max {
		return fmt.Sprintf("%d bytes, over the %d-byte bound of limits.ingest_bytes", size, max), nil
	}
	return "", nil
}

// plainFile reports whether m is a file's content (go-git's IsFile counts
// a link too: its blob is the target, and written out it would be a file
// holding a path).
func plainFile(m filemode.FileMode) bool {
	return m == filemode.Regular || m == filemode.Executable || m == filemode.Deprecated
}

// blobSize is a blob's size, read from its header alone.
func (r *Repo) blobSize(h plumbing.Hash) (int64, error) {
	return r.repo.Storer.EncodedObjectSize(h)
}

// refusedIn names the files of the tree at head the work tree does not
// take from it — with why — and whose copy on disk is not the same: what a
// remote's history holds that this copy never took. The kind's own kept
// files are never named.
func (r *Repo) refusedIn(k Kind, head plumbing.Hash) ([]string, error) {
	if head.IsZero() {
		return nil, nil
	}
	c, err := r.repo.CommitObject(head)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", head, err)
	}
	t, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("read tree: %w", err)
	}
	files, err := treeFiles(t)
	if err != nil {
		return nil, fmt.Errorf("read tree: %w", err)
	}
	var out []string
	for p, e := range files {
		if kept(p) {
			continue
		}
		why, err := r.takes(k, p, e)
		if err != nil {
			return nil, err
		}
		if why == "" {
			continue
		}
		if same, _ := r.sameOnDisk(p, e); same {
			continue
		}
		out = append(out, p+" ("+why+")")
	}
	sort.Strings(out)
	return out, nil
}

// sameOnDisk reports whether the work tree's file at p holds exactly the
// blob of e (a regular file of the same size and hash). An unsafe path is
// never looked up.
func (r *Repo) sameOnDisk(p string, e entry) (bool, error) {
	if !safeTreePath(p) || !plainFile(e.mode) {
		return false, nil
	}
	abs := filepath.Join(r.root, filepath.FromSlash(p))
	d, err := safefs.OpenDir(r.root, filepath.Dir(abs), false)
	if err != nil {
		return false, nil
	}
	defer d.Close()
	f, err := d.OpenFile(path.Base(p), 0, 0)
	if errors.Is(err, fs.ErrNotExist) || safefs.Refused(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return false, err
	}
	size, err := r.blobSize(e.hash)
	if err != nil || size != fi.Size() {
		return false, err
	}
	h := plumbing.NewHasher(plumbing.BlobObject, size)
	if _, err := io.Copy(h, f); err != nil {
		return false, err
	}
	return h.Sum() == e.hash, nil
}

func safeTreePath(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") {
		return false
	}
	for _, part := range strings.Split(p, "/") {
		if part == "" || part == "." || part == ".." || strings.EqualFold(part, ".git") {
			return false
		}
	}
	return true
}
