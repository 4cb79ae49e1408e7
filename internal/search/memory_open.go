package search

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/hint"
)

// MemorySetup says which of a project's memory a caller searches and
// with which settings, as plain values: the composition root
// (internal/factory) maps the project's settings onto them, and [OpenMemory]
// makes the [Memory] of it. `memhook index`, `search` and `get`, recall's
// text levels, the web app and the MCP tools all open memory this one way,
// so they search alike:
//
//	m, notes, err := search.OpenMemory(search.MemorySetup{Project: root, Scope: "all", Params: p, Options: o, ...})
type MemorySetup struct {
	Project string // the project root
	// Root, when set, is the one folder of Markdown files searched (the
	// commands' --root); Scope is then unused.
	Root     string
	Scope    string
	IndexDir string // the state dir's index folder
	Desk     string // the desk's folder ($CEREBRO_HOME), the org's memory
	Home     string // the user's home: Claude Code's auto-memory
	// ExtraPaths are the project's search.extra_paths, searched with its
	// memory in every scope but the org's.
	ExtraPaths []string
	Params     Params // how the roots' indexes are built
	// Options are the ranking settings; Query sets Limit, Now and Base,
	// and the embedder is Params'.
	Options      Options
	UpdateBudget time.Duration
}

// OpenMemory resolves the roots in scope (with the project's extra
// paths, except for the org's scope). The notes name the extra paths left
// out, and why. A scope across projects searches this project's alone
// until the caller sets the [Memory]'s Desk.
func OpenMemory(s MemorySetup) (*Memory, []string, error) {
	var roots []Root
	var notes []string
	if s.Root != "" {
		abs, err := filepath.Abs(s.Root)
		if err != nil {
			return nil, nil, fmt.Errorf("resolve --root %s: %w", s.Root, err)
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return nil, nil, hint.Wrap(fmt.Errorf("memory root %s is not a directory", s.Root), "pass --root with an existing folder of Markdown files")
		}
		roots = []Root{{Dir: abs, Kind: KindDir}}
	} else {
		sc, err := ParseScope(s.Scope)
		if err != nil {
			return nil, nil, hint.Wrap(err, "use --scope project, org, all, projects or everything")
		}
		roots = Roots(s.Project, s.Desk, s.Home, sc)
		if sc != ScopeOrg {
			var extra []Root
			extra, notes = ExtraRoots(s.Project, s.Home, s.ExtraPaths, roots)
			roots = append(roots, extra...)
		}
	}
	o := s.Options
	o.Embedder, o.Base = s.Params.Embedder, s.Project
	return &Memory{Base: s.Project, Roots: roots, IndexDir: s.IndexDir, Params: s.Params, Options: o, UpdateBudget: s.UpdateBudget}, notes, nil
}
