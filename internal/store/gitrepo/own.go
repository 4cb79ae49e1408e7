package gitrepo

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// ErrForeign means a folder's .git is not a repository of that folder's
// own: a gitfile (`gitdir: …`) or a link sending go-git to another
// repository, or a repository whose objects live elsewhere (commondir).
// A cloned repository can plant one in memory_long/ to have cerebro commit
// into a repository of its choosing; cerebro refuses it.
var ErrForeign = errors.New("is not a repository of its own")

// CheckOwn reports whether dir holds a repository of its own: nil when
// dir/.git is a real directory inside dir with no commondir, [ErrNoRepo]
// when there is no .git, [ErrForeign] (wrapped, naming what was found)
// otherwise. The folder itself is reached through the safe file layer,
// so a dir that resolves outside its root is refused too.
func CheckOwn(dir string) error {
	dotGit := filepath.Join(dir, git.GitDirName)
	fi, err := safefs.Lstat(dotGit)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("open repository at %s: %w", dir, ErrNoRepo)
	case err != nil:
		return fmt.Errorf("open repository at %s: %w", dir, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		target, _ := os.Readlink(dotGit)
		return fmt.Errorf("%s: .git is a symbolic link to %s: %w", dir, target, ErrForeign)
	case fi.Mode().IsRegular():
		data, _ := safefs.ReadFile(dotGit, 4<<10)
		what := strings.TrimSpace(strings.SplitN(string(data), "\n", 2)[0])
		return fmt.Errorf("%s: .git is a file (%q) pointing at another repository: %w", dir, what, ErrForeign)
	case !fi.IsDir():
		return fmt.Errorf("%s: .git is not a directory: %w", dir, ErrForeign)
	}
	return sharesObjects(dotGit)
}

// sharesObjects is [ErrForeign] when the git dir at gitDir takes its
// objects from another repository (commondir, gitdir).
func sharesObjects(gitDir string) error {
	for _, name := range []string{"commondir", "gitdir"} {
		if _, err := safefs.Lstat(filepath.Join(gitDir, name)); err == nil {
			return fmt.Errorf("%s/%s shares another repository's objects: %w", gitDir, name, ErrForeign)
		}
	}
	return nil
}

// openOwn opens the repository of dir with dir as its only work tree and
// dir/.git as its only storage, both bound to their folder: go-git never
// looks in a parent, never follows a gitfile, and never reads or writes
// through a link leaving either folder.
func openOwn(dir string, max *int64) (*git.Repository, error) {
	if err := CheckOwn(dir); err != nil {
		return nil, err
	}
	wt := worktreeFS(dir, max)
	dot := osfs.New(filepath.Join(dir, git.GitDirName), osfs.WithBoundOS())
	r, err := git.Open(guardedStorage{newStorage(dot), max}, wt)
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, fmt.Errorf("open repository at %s: %w", dir, ErrNoRepo)
	}
	if err != nil {
		return nil, fmt.Errorf("open repository at %s: %w", dir, err)
	}
	return r, nil
}

// largeObjectBytes is the size over which go-git reads an object from
// its pack or loose file as it is used, never whole into memory: without
// it every look at a blob (even for its size) held all of it, and a sync
// of a 1 GiB blob from a remote peaked at 5 GB.
const largeObjectBytes = 1 << 20

// newStorage is a repository's object store at dot, reading objects over
// [largeObjectBytes] as streams.
func newStorage(dot billy.Filesystem) *filesystem.Storage {
	return filesystem.NewStorageWithOptions(dot, cache.NewObjectLRUDefault(), filesystem.Options{LargeObjectThreshold: largeObjectBytes})
}

// initOwn creates the repository of dir (branch main) the way [openOwn]
// opens it.
func initOwn(dir string, max *int64) (*git.Repository, error) {
	if err := safefs.MkdirAll(filepath.Join(dir, git.GitDirName)); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	wt := worktreeFS(dir, max)
	dot := osfs.New(filepath.Join(dir, git.GitDirName), osfs.WithBoundOS())
	r, err := git.InitWithOptions(guardedStorage{newStorage(dot), max}, wt,
		git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")})
	if err != nil {
		return nil, fmt.Errorf("init repository at %s: %w", dir, err)
	}
	return r, nil
}

// DefaultMaxFileBytes bounds the files a repository of cerebro's versions
// until [Repo.BoundFiles] says otherwise: git hashes a file whole to tell
// whether it changed, and a sparse file of 20 GB planted in memory once
// kept `memhook night` hashing for minutes. A larger file is invisible to
// go-git (so never hashed, never staged; a version committed before stays
// as it was). It is the default of limits.ingest_bytes, the largest source
// memory keeps.
const DefaultMaxFileBytes int64 = 64 << 20

// BoundFiles sets the size over which a file of r is not versioned: the
// limits.ingest_bytes of the memory the repository holds (0:
// [DefaultMaxFileBytes]). Each repository keeps its own bound, so two
// projects in one process never share one.
func (r *Repo) BoundFiles(n int64) {
	if n <= 0 {
		n = DefaultMaxFileBytes
	}
	*r.bound() = n
}

func (r *Repo) bound() *int64 {
	if r.max == nil {
		n := DefaultMaxFileBytes
		r.max = &n
	}
	return r.max
}

func (r *Repo) tooLarge(fi os.FileInfo) bool { return tooLarge(fi, *r.bound()) }

// newBound is a repository's file bound before [Repo.BoundFiles], shared
// by the Repo and its work tree.
func newBound() *int64 {
	n := DefaultMaxFileBytes
	return &n
}

// tooLarge reports whether fi is a regular file over max.
func tooLarge(fi os.FileInfo, max int64) bool {
	return fi != nil && fi.Mode().IsRegular() && fi.Size() > max
}

// boundedFS is a work tree in which files over *max do not exist.
type boundedFS struct {
	billy.Filesystem
	max *int64
}

func (b boundedFS) tooLarge(fi os.FileInfo) bool { return tooLarge(fi, *b.max) }

func (b boundedFS) Lstat(name string) (os.FileInfo, error) {
	fi, err := b.Filesystem.Lstat(name)
	if err == nil && b.tooLarge(fi) {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: fs.ErrNotExist}
	}
	return fi, err
}

func (b boundedFS) Stat(name string) (os.FileInfo, error) {
	fi, err := b.Filesystem.Stat(name)
	if err == nil && b.tooLarge(fi) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	return fi, err
}

func (b boundedFS) ReadDir(path string) ([]os.FileInfo, error) {
	ents, err := b.Filesystem.ReadDir(path)
	kept := ents[:0]
	for _, e := range ents {
		if !b.tooLarge(e) {
			kept = append(kept, e)
		}
	}
	return kept, err
}

func (b boundedFS) Open(name string) (billy.File, error) {
	if _, err := b.Lstat(name); errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return b.Filesystem.Open(name)
}

func (b boundedFS) OpenFile(name string, flag int, perm os.FileMode) (billy.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE) == 0 {
		if fi, err := b.Filesystem.Lstat(name); err == nil && b.tooLarge(fi) {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}
	}
	return b.Filesystem.OpenFile(name, flag, perm)
}

// worktreeFS is dir as go-git's work tree: bound to dir, and without the
// files over *max.
func worktreeFS(dir string, max *int64) billy.Filesystem {
	return boundedFS{osfs.New(dir, osfs.WithBoundOS()), max}
}

// streamAddBytes is the size above which a file is staged by streaming it
// into a blob ([Repo.addStreaming]) instead of go-git's Add, which holds
// the whole file in memory (and grows that buffer by doubling): a 63 MB
// source once cost the org vault's commit 200 MB.
const streamAddBytes = 8 << 20

// addStreaming stages the regular file rel (size fi.Size()) as go-git's
// Add would, writing its blob through the storage's streaming writer.
func (r *Repo) addStreaming(rel, abs string, fi os.FileInfo) error {
	lw, ok := r.repo.Storer.(interface {
		LazyWriter() (io.WriteCloser, func(plumbing.ObjectType, int64) error, error)
	})
	if !ok {
		return fmt.Errorf("stage %s: the storage cannot stream a blob", rel)
	}
	f, err := safefs.Open(abs)
	if err != nil {
		return fmt.Errorf("stage %s: %w", rel, err)
	}
	defer f.Close()
	w, header, err := lw.LazyWriter()
	if err != nil {
		return fmt.Errorf("stage %s: %w", rel, err)
	}
	if err := header(plumbing.BlobObject, fi.Size()); err != nil {
		w.Close()
		return fmt.Errorf("stage %s: %w", rel, err)
	}
	if n, err := io.Copy(w, f); err != nil || n != fi.Size() {
		w.Close()
		return fmt.Errorf("stage %s: copied %d of %d bytes: %v (it changed while being read?)", rel, n, fi.Size(), err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("stage %s: %w", rel, err)
	}
	h, ok := w.(interface{ Hash() plumbing.Hash })
	if !ok {
		return fmt.Errorf("stage %s: the blob writer has no hash", rel)
	}
	idx, err := r.repo.Storer.Index()
	if err != nil {
		return fmt.Errorf("stage %s: read index: %w", rel, err)
	}
	e, err := idx.Entry(rel)
	if err != nil {
		e = idx.Add(rel)
	}
	e.Hash = h.Hash()
	e.ModifiedAt = fi.ModTime()
	e.Size = uint32(fi.Size())
	if e.Mode, err = filemode.NewFromOSFileMode(fi.Mode()); err != nil {
		return fmt.Errorf("stage %s: %w", rel, err)
	}
	if err := r.repo.Storer.SetIndex(idx); err != nil {
		return fmt.Errorf("stage %s: write index: %w", rel, err)
	}
	return nil
}

// eachFile calls fn for every file of t under rel (slash path, "" for
// all) with its blob hash, without reading a blob: go-git's Files()
// reads each one whole, so listing a tree that holds a 63 MB source cost
// 63 MB per source, for every commit.
func eachFile(t *object.Tree, rel string, fn func(name string, h plumbing.Hash) error) error {
	w := object.NewTreeWalker(t, true, nil)
	defer w.Close()
	for {
		name, e, err := w.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if !e.Mode.IsFile() || !under(name, rel) {
			continue
		}
		if err := fn(name, e.Hash); err != nil {
			return err
		}
	}
}
