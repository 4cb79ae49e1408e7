package gitrepo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/go-git/go-billy/v5/osfs"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
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
	for _, name := range []string{"commondir", "gitdir"} {
		if _, err := safefs.Lstat(filepath.Join(dotGit, name)); err == nil {
			return fmt.Errorf("%s: .git/%s shares another repository's objects: %w", dir, name, ErrForeign)
		}
	}
	return nil
}

// openOwn opens the repository of dir with dir as its only work tree and
// dir/.git as its only storage, both bound to their folder: go-git never
// looks in a parent, never follows a gitfile, and never reads or writes
// through a link leaving either folder.
func openOwn(dir string) (*git.Repository, error) {
	if err := CheckOwn(dir); err != nil {
		return nil, err
	}
	wt := osfs.New(dir, osfs.WithBoundOS())
	dot := osfs.New(filepath.Join(dir, git.GitDirName), osfs.WithBoundOS())
	r, err := git.Open(filesystem.NewStorage(dot, cache.NewObjectLRUDefault()), wt)
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, fmt.Errorf("open repository at %s: %w", dir, ErrNoRepo)
	}
	if err != nil {
		return nil, fmt.Errorf("open repository at %s: %w", dir, err)
	}
	return r, nil
}

// initOwn creates the repository of dir (branch main) the way [openOwn]
// opens it.
func initOwn(dir string) (*git.Repository, error) {
	if err := safefs.MkdirAll(filepath.Join(dir, git.GitDirName)); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	wt := osfs.New(dir, osfs.WithBoundOS())
	dot := osfs.New(filepath.Join(dir, git.GitDirName), osfs.WithBoundOS())
	r, err := git.InitWithOptions(filesystem.NewStorage(dot, cache.NewObjectLRUDefault()), wt,
		git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")})
	if err != nil {
		return nil, fmt.Errorf("init repository at %s: %w", dir, err)
	}
	return r, nil
}
