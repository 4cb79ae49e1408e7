package importer

import (
	"os"
	"path/filepath"
	"strings"
)

// The rule of where an imported session's memory may go. The hooks write
// wherever Claude Code ran, because the person was there at that moment;
// an import writes months of sessions at once, so it writes only into
// projects the person works in:
//
//   - the session's project is found as the hooks find it: the git top
//     level of its working directory, a linked worktree's main
//     repository, the desk for a folder under the desk;
//   - it is admitted when it is the desk, or a folder holding .git (a
//     repository or a worktree's main one): a plain folder is not a
//     project unless the person names it with --project;
//   - never the home folder itself (a home kept in git would otherwise
//     take every session run anywhere in it), never the file system's
//     root, never the temporary folder or anything in it (a clone made to
//     try something is gone tomorrow);
//   - a working directory that no longer exists belongs to the project
//     holding its nearest existing parent when that one is admitted by
//     the same rule (a deleted worktree inside its repository), else its
//     project is gone: reported, never created, and imported only into
//     the archive the person names (--archive), one folder per project.
//
// [place] applies it.

// placement says where a session's memory goes.
type placement struct {
	root string // the project root its sections are written under
	// project is the folder the person knows the project by: the root,
	// or for a gone project the working directory's.
	project string
	gone    bool   // the project's folder no longer exists
	refused string // why nowhere, when so
}

// placer applies the rule for one import.
type placer struct {
	home, temp, desk string
	named            string // --project's root, "" for none
	archive          string
	root             func(dir string) (string, error)
	cache            map[string]placement
}

func (p *placer) place(cwd string) placement {
	if pl, ok := p.cache[cwd]; ok {
		return pl
	}
	pl := p.decide(cwd)
	if p.cache == nil {
		p.cache = map[string]placement{}
	}
	p.cache[cwd] = pl
	return pl
}

func (p *placer) decide(cwd string) placement {
	if cwd == "" {
		return placement{refused: "no working directory in its first lines"}
	}
	if !filepath.IsAbs(cwd) {
		return placement{refused: "its working directory " + cwd + " is not an absolute path"}
	}
	cwd = filepath.Clean(cwd)
	if fi, err := os.Stat(cwd); err == nil && fi.IsDir() {
		root, err := p.root(cwd)
		if err != nil {
			return placement{refused: err.Error()}
		}
		if why := p.refuse(root); why != "" {
			return placement{project: root, refused: why}
		}
		return placement{root: root, project: root}
	}
	for dir := filepath.Dir(cwd); dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		if root, err := p.root(dir); err == nil && p.refuse(root) == "" {
			return placement{root: root, project: root}
		}
		break
	}
	pl := placement{project: cwd, gone: true}
	if p.archive != "" {
		pl.root = filepath.Join(p.archive, slug(cwd))
	}
	return pl
}

// refuse says why root may not take imported memory ("" when it may).
func (p *placer) refuse(root string) string {
	if p.desk != "" && same(root, p.desk) {
		return ""
	}
	if p.named != "" && same(root, p.named) {
		return p.never(root)
	}
	if why := p.never(root); why != "" {
		return why
	}
	if !p.repo(root) {
		return root + " is not a repository (no .git): name it with --project to import it anyway"
	}
	return ""
}

// never says why root is never a project, whoever names it.
func (p *placer) never(root string) string {
	switch {
	case root == string(filepath.Separator) || root == filepath.VolumeName(root)+string(filepath.Separator):
		return "the file system's root is not a project"
	case p.home != "" && same(root, p.home):
		return root + " is the home folder, not a project"
	case p.temp != "" && within(root, p.temp):
		return root + " is in the temporary folder, not a project"
	}
	return ""
}

func (p *placer) repo(root string) bool {
	_, err := os.Lstat(filepath.Join(root, ".git"))
	return err == nil
}

// resolved is path with its links resolved, when it exists.
func resolved(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return filepath.Clean(path)
}

func same(a, b string) bool { return resolved(a) == resolved(b) }

func within(path, dir string) bool {
	path, dir = resolved(path), resolved(dir)
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
}

// slug names a gone project's archive folder as Claude Code names its
// transcript folder: the path with every character but letters and
// digits made '-'.
func slug(path string) string {
	var b strings.Builder
	for _, r := range path {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}
