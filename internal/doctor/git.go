package doctor

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
)

// checkMemoryInGit says whether the project's memory folders are
// committed in the project's repository, ignored by it, or neither: an
// untracked memory folder clutters `git status` and is neither shared nor
// kept out on purpose, so the person gets a hint for both choices.
func checkMemoryInGit(rep *Report, root string) {
	if root == "" {
		return
	}
	l := project.Layout{Root: root}
	var dirs []string
	for _, d := range []string{l.ShortDir(), l.LongDir()} {
		if fi, err := os.Lstat(d); err == nil && fi.IsDir() {
			dirs = append(dirs, d)
		}
	}
	if len(dirs) == 0 {
		return // no memory yet: nothing to commit or ignore
	}
	repo, err := gitrepo.Open(root)
	if errors.Is(err, gitrepo.ErrNoRepo) {
		rep.Add("ok", "", "project memory in git: the project is not a git repository")
		return
	}
	if err != nil {
		rep.Add("warn", "", "project memory in git: %v", err)
		return
	}
	for _, d := range dirs {
		rel, err := repo.Rel(d)
		if err != nil {
			rep.Add("warn", "", "project memory in git: %v", err)
			continue
		}
		shown := filepath.ToSlash(rel)
		if d == l.LongDir() && gitrepo.CheckOwn(d) == nil {
			// An older cerebro kept memory's history in memory_long/.git:
			// the project's git add would stage a gitlink, not the files.
			hint := "run `memhook long log` once: it moves that history to .claude/.cerebro/memory_long.git (history kept), and memory_long/ becomes plain files your project's git can commit"
			if _, err := os.Lstat(longterm.GitDir(d)); err == nil {
				hint = "remove " + filepath.Join(d, ".git") + ": memory's history is in " + longterm.GitDir(d) + " already, and the left-over repository makes the project's git stage a gitlink"
			}
			rep.Add("warn", hint, "%s: holds a git repository of its own inside the project's repository", shown)
			continue
		}
		st, err := repo.PathState(shown)
		switch {
		case err != nil:
			rep.Add("warn", "", "project memory in git: %s: %v", shown, err)
		case st == gitrepo.Tracked:
			rep.Add("ok", "", "%s: committed in the project's git repository (shared with everyone who clones it)", shown)
		case st == gitrepo.Ignored:
			rep.Add("ok", "", "%s: ignored by the project's git repository (stays on this machine)", shown)
		default:
			rep.Add("warn", "share it: git add "+shown+" && git commit; or keep it local: add /"+shown+"/ to .gitignore (see docs/short-term.md, \"Should memory be committed?\")",
				"%s: neither committed nor ignored by the project's git repository", shown)
		}
	}
}
