package gitrepo

import (
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// PathState is how the repository treats a folder.
type PathState int

// The states [Repo.PathState] tells apart.
const (
	Untracked PathState = iota // neither tracked nor ignored: shows in git status
	Tracked                    // the index holds files under it (committed or staged)
	Ignored                    // a .gitignore (or info/exclude) rule covers it
)

func (s PathState) String() string {
	switch s {
	case Tracked:
		return "tracked"
	case Ignored:
		return "ignored"
	}
	return "untracked"
}

// PathState tells whether the folder rel (a slash path relative to the
// work tree) is tracked, ignored, or neither. A folder with tracked files
// counts as tracked even when a rule ignores it, as git itself keeps
// tracking such files.
func (r *Repo) PathState(rel string) (PathState, error) {
	rel = strings.Trim(rel, "/")
	idx, err := r.repo.Storer.Index()
	if err != nil {
		return Untracked, fmt.Errorf("read index: %w", err)
	}
	for _, e := range idx.Entries {
		if under(e.Name, rel) {
			return Tracked, nil
		}
	}
	wt, err := r.repo.Worktree()
	if err != nil {
		return Untracked, fmt.Errorf("open work tree: %w", err)
	}
	patterns, err := gitignore.ReadPatterns(wt.Filesystem, nil)
	if err != nil {
		return Untracked, fmt.Errorf("read .gitignore: %w", err)
	}
	patterns = append(patterns, r.excludes()...)
	m := gitignore.NewMatcher(patterns)
	parts := strings.Split(rel, "/")
	// A rule may name the folder or any folder above it.
	for i := 1; i <= len(parts); i++ {
		if m.Match(parts[:i], true) {
			return Ignored, nil
		}
	}
	return Untracked, nil
}
