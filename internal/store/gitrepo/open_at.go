package gitrepo

import (
	"errors"
	"fmt"

	git "github.com/go-git/go-git/v5"
)

// OpenAt opens the repository whose work tree is exactly dir, without
// looking in parent directories: a folder that is not itself a repository
// (but sits inside one) is [ErrNoRepo]. The rollup uses it so that a
// project never reports the activity of a repository around it, and
// long-term memory so that it commits only into its own. A .git that is a
// gitfile, a link or shares another repository's objects is [ErrForeign].
func OpenAt(dir string) (*Repo, error) {
	max := newBound()
	r, err := openOwn(dir, max)
	if err != nil {
		return nil, err
	}
	return &Repo{repo: r, root: dir, max: max}, nil
}

// OpenAtForReading opens the repository whose work tree is exactly dir
// like [OpenAt], but follows a gitfile (`git worktree` makes one): for
// reading a project's own history (the rollup's activity), never for
// committing.
func OpenAtForReading(dir string) (*Repo, error) {
	r, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, fmt.Errorf("open repository at %s: %w", dir, ErrNoRepo)
	}
	if err != nil {
		return nil, fmt.Errorf("open repository at %s: %w", dir, err)
	}
	return &Repo{repo: r, root: dir}, nil
}
