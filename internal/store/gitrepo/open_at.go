package gitrepo

import (
	"errors"
	"fmt"

	git "github.com/go-git/go-git/v5"
)

// OpenAt opens the repository whose work tree is exactly dir, without
// looking in parent directories: a folder that is not itself a repository
// (but sits inside one) is [ErrNoRepo]. The rollup uses it so that a
// project never reports the activity of a repository around it.
func OpenAt(dir string) (*Repo, error) {
	r, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, fmt.Errorf("open repository at %s: %w", dir, ErrNoRepo)
	}
	if err != nil {
		return nil, fmt.Errorf("open repository at %s: %w", dir, err)
	}
	return &Repo{repo: r, root: dir}, nil
}
