package search

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Kind says what a memory root holds, which decides how its files age.
type Kind string

const (
	KindShort Kind = "short" // project short-term: daily files, archive, roll-ups
	KindLong  Kind = "long"  // project long-term wiki, CORE, index
	KindAuto  Kind = "auto"  // Claude Code's own auto-memory folder (read only)
	KindOrg   Kind = "org"   // the org vault on the desk
	KindDir   Kind = "dir"   // a directory named on the command line
)

// Root is one directory of Markdown memory with its own index.
type Root struct {
	Dir  string
	Kind Kind
	// Skip lists folders (slash-separated, relative to Dir) never indexed.
	Skip []string
}

// Scope selects which roots a search covers.
type Scope string

const (
	ScopeProject Scope = "project"
	ScopeOrg     Scope = "org"
	ScopeAll     Scope = "all"
	// ScopeProjects is every project on the desk's registry that shares
	// its memory, this one first (see across.go).
	ScopeProjects Scope = "projects"
	// ScopeEverything is ScopeProjects and the org vault.
	ScopeEverything Scope = "everything"
)

// DefaultScope is the scope of a search that names none — `memhook
// search`, memory_search and the web app's search alike, so the same
// words find the same results wherever they are typed.
const DefaultScope = ScopeAll

// ParseScope accepts project, org, all, projects or everything.
func ParseScope(s string) (Scope, error) {
	switch Scope(s) {
	case ScopeProject, ScopeOrg, ScopeAll, ScopeProjects, ScopeEverything:
		return Scope(s), nil
	}
	return "", fmt.Errorf("unknown scope %q (want project, org, all, projects or everything)", s)
}

// Across reports whether the scope reaches the desk's other projects.
func (s Scope) Across() bool { return s == ScopeProjects || s == ScopeEverything }

// AutoMemoryDir is Claude Code's auto-memory folder for a project:
// ~/.claude/projects/<slug>/memory, the slug being the project path with
// "/" and "." replaced by "-".
func AutoMemoryDir(homeDir, projectRoot string) string {
	slug := strings.NewReplacer("/", "-", "\\", "-", ".", "-", ":", "-").Replace(projectRoot)
	return filepath.Join(homeDir, ".claude", "projects", slug, "memory")
}

// Roots lists the memory roots of a project (its short-term and long-term
// folders and Claude Code's auto-memory) and of the org desk, as scope
// asks. Roots may not exist yet; indexing skips them, but a memory file
// inside them may still be asked for.
func Roots(projectRoot, deskDir, homeDir string, scope Scope) []Root {
	var out []Root
	if scope != ScopeOrg && projectRoot != "" {
		claude := filepath.Join(projectRoot, ".claude")
		out = append(out,
			Root{Dir: filepath.Join(claude, "memory_short"), Kind: KindShort},
			Root{Dir: filepath.Join(claude, "memory_long"), Kind: KindLong, Skip: []string{"raw/_large"}},
		)
		if homeDir != "" {
			out = append(out, Root{Dir: AutoMemoryDir(homeDir, projectRoot), Kind: KindAuto})
		}
	}
	if scope != ScopeProject && scope != ScopeProjects && deskDir != "" {
		out = append(out, Root{Dir: deskDir, Kind: KindOrg, Skip: []string{".claude", ".trash", "raw/_large"}})
	}
	return out
}

// skipped reports whether rel (slash-separated, relative to the root) is a
// folder the root never indexes: a listed one, or any hidden folder.
func (r Root) skipped(rel string) bool {
	if strings.HasPrefix(filepath.Base(rel), ".") {
		return true
	}
	for _, s := range r.Skip {
		if rel == s {
			return true
		}
	}
	return false
}
