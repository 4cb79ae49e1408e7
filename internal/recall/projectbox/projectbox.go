// Package projectbox opens one project's black box: [blackbox.Box] wired
// to the project's memory the way every door reaches it (`memhook
// recall`, `remember`, `relearn`, `deny`, `tables`, the web app, the MCP
// tools) — the tables' journal in the project and their cache in the
// state dir, recall's text levels over the search indexes (level 2, and
// level 4 by vectors), the desk's other projects when asked, and the
// model calls of extreme recall and table naming within the day's budget.
//
//	box, done, err := projectbox.Open(p)
//	defer done()
//	ans, err := projectbox.Recall(ctx, p, raw, record)
package projectbox

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/recall/tables"
	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/cerebro-mem/cerebro/internal/shortterm"
)

// Project is what opening a project's box takes: its root and settings,
// where the state lives, and the process's environment and clock.
type Project struct {
	Root   string
	Config *config.Effective
	// Memory opens the project's searchable memory in a scope (the
	// project's own, or the desk's projects), as every command opens it.
	Memory     func(search.Scope) (*search.Memory, error)
	StateDir   string // the state dir: the day's model-call budget
	IndexDir   string // the state dir's index folder: the tables' cache, offers, threads
	Getenv     func(string) string
	Environ    func() []string
	Now        func() time.Time
	Executable string // memhook, which the research walk's answering call runs
}

// OpenError is a box that cannot be opened; Hint says what to do.
type OpenError struct {
	Err  error
	hint string
}

func (e *OpenError) Error() string { return e.Err.Error() }
func (e *OpenError) Unwrap() error { return e.Err }

// Hint says what the user can do.
func (e *OpenError) Hint() string { return e.hint }

// Open wires the project's memory behind the verbs; done closes it.
func Open(p Project) (*blackbox.Box, func(), error) {
	root, eff := p.Root, p.Config
	lay := project.Layout{Root: root}
	long := lay.LongDir()
	state := filepath.Join(p.IndexDir, project.ID(root))
	st, err := tables.Open(filepath.Join(long, blackbox.TablesDir, "journal.jsonl"), filepath.Join(state, "tables.db"))
	if err != nil {
		return nil, nil, &OpenError{fmt.Errorf("open the relational store: %w", err), "the cache is rebuilt from the journal: delete " + filepath.Join(state, "tables.db") + " and retry"}
	}
	scan := blackbox.MarkdownScan{Base: root, Dirs: []string{long, lay.ShortDir()},
		Skip: []string{"raw", "graph", blackbox.TablesDir, blackbox.DenialsDir}, SkipFiles: blackbox.GeneratedFiles}
	box := &blackbox.Box{
		Root: root, LongDir: long, Tables: st, Text: scan,
		VectorWhy:       "no embedding provider configured",
		ResearchCalls:   eff.Recall.ExtremeMaxCalls,
		ResearchSeconds: eff.Recall.ExtremeSeconds,
		Nested:          p.Getenv(claude.NestedEnv) != "",
		OffersPath:      filepath.Join(state, "offers.jsonl"),
		ThreadsDir:      filepath.Join(state, "threads"),
		NoteBytes:       eff.Limits.NoteBytes,
		VectorMin:       eff.Recall.VectorMinScore,
	}
	// Level 2 goes through the FTS5 indexes when they can be set up; the
	// plain scan stays as the fallback.
	m, serr := p.Memory(search.ScopeProject)
	if serr == nil {
		box.Text = &indexedText{memory: m, now: p.Now, scan: scan}
		desk := &deskText{indexedText: indexedText{now: p.Now, scan: scan}, open: func() (*search.Memory, error) { return p.Memory(search.ScopeProjects) }}
		box.Across, box.AcrossGraphs = desk, desk
	} else {
		box.AcrossWhy = "the memory indexes cannot be set up: " + serr.Error()
	}
	if lay.LongActive() {
		box.Chronicle = longterm.New(root).Log
	}
	switch {
	case eff.Embedding.Provider == "":
	case serr != nil:
		box.VectorWhy = "the embedding provider cannot be set up: " + serr.Error()
	default:
		box.Vector = &vectorText{indexedText{memory: m, now: p.Now, scan: scan}}
	}
	cmd, lookErr := exec.LookPath(eff.Distiller.Command)
	if lookErr == nil && eff.Recall.ExtremeMaxCalls > 0 {
		box.Research, box.ResearchWhy = p.budgeted(blackbox.ClaudeResearch{
			Runner:  claude.Runner{Command: cmd, Dir: root, Env: p.Environ(), Guard: shortterm.PromptGuard(eff)},
			Memhook: p.Executable, Model: eff.Distiller.Model,
		}, researchSpent)
	}
	switch {
	case box.Nested:
		box.NamerWhy = "a nested call (CEREBRO_NESTED) makes no model call"
	case lookErr == nil:
		box.Namer, box.NamerWhy = p.budgeted(blackbox.ClaudeResearch{
			Runner: claude.Runner{Command: cmd, Dir: root, Env: p.Environ(), Guard: shortterm.PromptGuard(eff)}, Model: eff.Distiller.Model,
		}, namingSpent)
	}
	return box, func() { st.Close() }, nil
}
