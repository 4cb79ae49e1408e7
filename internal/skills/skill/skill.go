// Package skill keeps skills as versioned hypotheses: every edit of a file
// under skills/<name>/ is committed at once, and a skill's history can be
// listed, diffed and reverted (as a new commit, never by rewriting
// history). All git work goes through internal/store/gitrepo.
//
// A skill file is committed into the repository that holds it; when none
// does (a plugin installed into Claude Code's cache, a fresh folder), a
// repository is made at the skills root, so that the skills — and only
// they — are versioned there.
//
//	if ref, ok := skill.Locate(path); ok {
//		res, err := skill.Commit(ref, "Edit", now)
//	}
package skill

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
)

// Ref is a file of a skill.
type Ref struct {
	Root string // the skills folder (…/skills)
	Name string // the skill: the folder under Root
	File string // absolute path of the file
}

// Dir is the skill's folder.
func (r Ref) Dir() string { return filepath.Join(r.Root, r.Name) }

// Locate reports whether path is a file inside a skill folder
// (…/skills/<name>/…), using the innermost such folder.
func Locate(path string) (Ref, bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Ref{}, false
	}
	parts := strings.Split(filepath.ToSlash(abs), "/")
	for i := len(parts) - 3; i >= 0; i-- {
		if parts[i] != "skills" || parts[i+1] == "" || strings.HasPrefix(parts[i+1], ".") {
			continue
		}
		root := filepath.FromSlash(strings.Join(parts[:i+1], "/"))
		if root == "" {
			root = string(filepath.Separator)
		}
		return Ref{Root: root, Name: parts[i+1], File: abs}, true
	}
	return Ref{}, false
}

// Result says what a commit did.
type Result struct {
	Skill       string `json:"skill"`
	Commit      string `json:"commit,omitempty"` // "" when nothing changed
	Repo        string `json:"repo"`
	Initialized bool   `json:"initialized,omitempty"` // a repository was made at the skills root
}

// open finds the repository holding dir, making one at root when none does.
func open(dir, root string) (*gitrepo.Repo, bool, error) {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			dir = d
			break
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	r, err := gitrepo.Open(dir)
	if errors.Is(err, gitrepo.ErrNoRepo) {
		r, err = gitrepo.Init(root)
		return r, err == nil, err
	}
	return r, false, err
}

// Commit commits the file (added, changed or deleted) with a message naming
// the skill and the tool that edited it.
func Commit(ref Ref, tool string, now time.Time) (Result, error) {
	res := Result{Skill: ref.Name}
	r, created, err := open(filepath.Dir(ref.File), ref.Root)
	if err != nil {
		return res, fmt.Errorf("commit skill %s: %w", ref.Name, err)
	}
	res.Repo, res.Initialized = r.Root(), created
	rel, err := r.Rel(ref.File)
	if err != nil {
		return res, fmt.Errorf("commit skill %s: %w", ref.Name, err)
	}
	msg := fmt.Sprintf("skill %s: %s %s", ref.Name, tool, rel)
	h, err := r.CommitPaths([]string{ref.File}, msg, now)
	if errors.Is(err, gitrepo.ErrNothingToCommit) {
		return res, nil
	}
	if err != nil {
		return res, fmt.Errorf("commit skill %s: %w", ref.Name, err)
	}
	res.Commit = h
	return res, nil
}

// CommitFiles commits several files of one skill (added, changed or
// deleted) as one commit with the given message: a promotion replaces the
// active file and deletes the candidate in the same commit.
func CommitFiles(ref Ref, files []string, msg string, now time.Time) (Result, error) {
	res := Result{Skill: ref.Name}
	r, created, err := open(ref.Dir(), ref.Root)
	if err != nil {
		return res, fmt.Errorf("commit skill %s: %w", ref.Name, err)
	}
	res.Repo, res.Initialized = r.Root(), created
	h, err := r.CommitPaths(files, msg, now)
	if errors.Is(err, gitrepo.ErrNothingToCommit) {
		return res, nil
	}
	if err != nil {
		return res, fmt.Errorf("commit skill %s: %w", ref.Name, err)
	}
	res.Commit = h
	return res, nil
}

// CommittedVersion returns the content of file as committed at HEAD of the
// repository holding it, or false when no repository holds it or HEAD has
// no such file. It never walks history: it runs on the first memory call
// of a project, and a plugin checkout may hold thousands of commits.
func CommittedVersion(file string) ([]byte, bool) {
	b, err := gitrepo.CommittedFile(file)
	return b, err == nil
}

// Named returns the skill called name under root, refusing names that are
// not one plain folder.
func Named(root, name string) (Ref, error) {
	if name == "" || name != filepath.Base(name) || strings.HasPrefix(name, ".") || strings.ContainsAny(name, `/\`) {
		return Ref{}, fmt.Errorf("skill name %q: want the name of one folder under %s", name, root)
	}
	ref := Ref{Root: root, Name: name, File: filepath.Join(root, name, "SKILL.md")}
	if _, err := os.Stat(ref.Dir()); err != nil {
		return ref, fmt.Errorf("skill %q: no folder %s", name, ref.Dir())
	}
	return ref, nil
}

// Log lists the commits that touched the skill, newest first.
func Log(ref Ref, limit int) ([]gitrepo.Commit, error) {
	r, err := gitrepo.Open(ref.Dir())
	if err != nil {
		return nil, fmt.Errorf("skill %s history: %w", ref.Name, err)
	}
	return r.Log(ref.Dir(), limit)
}

// Diff shows what commit rev (default: the skill's latest) changed in the
// skill.
func Diff(ref Ref, rev string) (string, error) {
	r, err := gitrepo.Open(ref.Dir())
	if err != nil {
		return "", fmt.Errorf("skill %s diff: %w", ref.Name, err)
	}
	if rev == "" {
		log, err := r.Log(ref.Dir(), 1)
		if err != nil {
			return "", err
		}
		if len(log) == 0 {
			return "", fmt.Errorf("skill %s has no commits yet", ref.Name)
		}
		rev = log[0].Hash
	}
	parent, err := r.Parent(rev)
	if err != nil {
		return "", err
	}
	return r.Diff(ref.Dir(), parent, rev)
}

// ErrNoPrevious means the skill has a single version.
var ErrNoPrevious = errors.New("no previous version to revert to")

// Revert restores the skill's previous committed version as a new commit.
func Revert(ref Ref, now time.Time) (Result, error) {
	res := Result{Skill: ref.Name}
	r, err := gitrepo.Open(ref.Dir())
	if err != nil {
		return res, fmt.Errorf("revert skill %s: %w", ref.Name, err)
	}
	res.Repo = r.Root()
	log, err := r.Log(ref.Dir(), 2)
	if err != nil {
		return res, err
	}
	if len(log) < 2 {
		return res, fmt.Errorf("revert skill %s: %w", ref.Name, ErrNoPrevious)
	}
	h, err := r.RestorePath(ref.Dir(), log[1].Hash, fmt.Sprintf("skill %s: revert to %.12s (%s)", ref.Name, log[1].Hash, log[1].Message), now)
	if err != nil {
		return res, fmt.Errorf("revert skill %s: %w", ref.Name, err)
	}
	res.Commit = h
	return res, nil
}
