package gitrepo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/go-git/go-billy/v5/osfs"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// A repository with a separate git dir keeps its work tree's history
// outside the work tree: long-term memory lives inside the project's own
// repository, and a .git in memory_long/ made the project's `git add -A`
// stage a gitlink (an embedded repository) instead of the memory's files.
// With the history in a git dir elsewhere, memory_long/ holds plain files
// the project's git can share, and the memory's own commits stay where
// the project's git does not look.

// checkGitDir reports whether gitDir is a git dir of its own: nil when it
// is a real directory with no commondir or gitdir, [ErrNoRepo] when it
// does not exist, [ErrForeign] otherwise.
func checkGitDir(gitDir string) error {
	fi, err := safefs.Lstat(gitDir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("open repository at %s: %w", gitDir, ErrNoRepo)
	case err != nil:
		return fmt.Errorf("open repository at %s: %w", gitDir, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		target, _ := os.Readlink(gitDir)
		return fmt.Errorf("%s is a symbolic link to %s: %w", gitDir, target, ErrForeign)
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory: %w", gitDir, ErrForeign)
	}
	return sharesObjects(gitDir)
}

// OpenSeparate opens the repository whose work tree is exactly dir and
// whose storage is gitDir, both bound to their folder like [OpenAt]. A
// gitDir that does not exist is [ErrNoRepo]; a link, a file or a shared
// object store is [ErrForeign].
func OpenSeparate(dir, gitDir string) (*Repo, error) {
	if err := checkGitDir(gitDir); err != nil {
		return nil, err
	}
	max := newBound()
	dot := osfs.New(gitDir, osfs.WithBoundOS())
	r, err := git.Open(guardedStorage{newStorage(dot), max}, worktreeFS(dir, max))
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, fmt.Errorf("open repository at %s: %w", gitDir, ErrNoRepo)
	}
	if err != nil {
		return nil, fmt.Errorf("open repository at %s: %w", gitDir, err)
	}
	return &Repo{repo: r, root: dir, max: max}, nil
}

// InitSeparate opens the repository of dir stored in gitDir (see
// [OpenSeparate]), creating it (branch main) when gitDir does not exist.
func InitSeparate(dir, gitDir string) (*Repo, error) {
	r, err := OpenSeparate(dir, gitDir)
	if !errors.Is(err, ErrNoRepo) {
		return r, err
	}
	if err := safefs.MkdirAll(gitDir); err != nil {
		return nil, fmt.Errorf("create %s: %w", gitDir, err)
	}
	// Made without a work tree: given one, go-git writes a gitfile (.git:
	// "gitdir: …") into it, the very repository inside the project's this
	// avoids. The work tree is named at each open instead.
	dot := osfs.New(gitDir, osfs.WithBoundOS())
	if _, err := git.InitWithOptions(newStorage(dot), nil,
		git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")}); err != nil {
		return nil, fmt.Errorf("init repository at %s: %w", gitDir, err)
	}
	return OpenSeparate(dir, gitDir)
}

// MoveGitDirOut moves dir's own .git (see [CheckOwn]) to gitDir, which
// must not exist, so that dir stops being a repository inside another's
// work tree; the history, index and branches go with it unchanged.
func MoveGitDirOut(dir, gitDir string) error {
	if err := CheckOwn(dir); err != nil {
		return err
	}
	if _, err := os.Lstat(gitDir); err == nil {
		return fmt.Errorf("move %s out: %s exists already", filepath.Join(dir, git.GitDirName), gitDir)
	}
	if err := safefs.MkdirAll(filepath.Dir(gitDir)); err != nil {
		return fmt.Errorf("move %s out: %w", filepath.Join(dir, git.GitDirName), err)
	}
	if err := safefs.Rename(filepath.Join(dir, git.GitDirName), gitDir); err != nil {
		return fmt.Errorf("move %s out: %w", filepath.Join(dir, git.GitDirName), err)
	}
	return nil
}
