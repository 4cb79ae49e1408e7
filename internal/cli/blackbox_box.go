package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/recall/tables"
	"github.com/cerebro-mem/cerebro/internal/search"

	"github.com/cerebro-mem/cerebro/internal/shortterm"
)

// openBox wires a project's memory behind the two verbs: the tables'
// journal in the project, their cache and the offers in the state dir.
func (f *Factory) openBox(dir string) (*blackbox.Box, func(), error) {
	root, err := f.projectRoot(dir)
	if err != nil {
		return nil, nil, err
	}
	eff := f.Config(root)
	lay := project.Layout{Root: root}
	long := lay.LongDir()
	state := filepath.Join(f.Paths.Indexes(), project.ID(root))
	st, err := tables.Open(filepath.Join(long, blackbox.TablesDir, "journal.jsonl"), filepath.Join(state, "tables.db"))
	if err != nil {
		return nil, nil, withHint(fmt.Errorf("open the relational store: %w", err), "the cache is rebuilt from the journal: delete "+filepath.Join(state, "tables.db")+" and retry")
	}
	scan := blackbox.MarkdownScan{Base: root, Dirs: []string{long, lay.ShortDir()},
		Skip: []string{"raw", "graph", blackbox.TablesDir, blackbox.DenialsDir}, SkipFiles: blackbox.GeneratedFiles}
	box := &blackbox.Box{
		Root: root, LongDir: long, Tables: st, Text: scan,
		VectorWhy:       "no embedding provider configured",
		ResearchCalls:   eff.Recall.ExtremeMaxCalls,
		ResearchSeconds: eff.Recall.ExtremeSeconds,
		Nested:          f.Getenv(claude.NestedEnv) != "",
		OffersPath:      filepath.Join(state, "offers.jsonl"),
		ThreadsDir:      filepath.Join(state, "threads"),
		NoteBytes:       eff.Limits.NoteBytes,
	}
	// Level 2 goes through the FTS5 indexes when they can be set up; the
	// plain scan stays as the fallback.
	setup, serr := f.memoryRoots(root, "", string(search.ScopeProject))
	if serr == nil {
		box.Text = &indexedText{f: f, setup: setup, scan: scan}
		desk := &deskText{indexedText: indexedText{f: f, scan: scan}, root: root}
		box.Across, box.AcrossGraphs = desk, desk
	} else {
		box.AcrossWhy = "the memory indexes cannot be set up: " + serr.Error()
	}
	box.VectorMin = eff.Recall.VectorMinScore
	if lay.LongActive() {
		box.Chronicle = longterm.New(root).Log
	}
	switch {
	case eff.Embedding.Provider == "":
	case serr != nil:
		box.VectorWhy = "the embedding provider cannot be set up: " + serr.Error()
	default:
		box.Vector = &vectorText{indexedText{f: f, setup: setup, scan: scan}}
	}
	cmd, lookErr := exec.LookPath(eff.Distiller.Command)
	if lookErr == nil && eff.Recall.ExtremeMaxCalls > 0 {
		box.Research, box.ResearchWhy = f.researchBudget(blackbox.ClaudeResearch{
			Runner:  claude.Runner{Command: cmd, Dir: root, Env: f.Environ(), Guard: shortterm.PromptGuard(eff)},
			Memhook: f.Executable, Model: eff.Distiller.Model,
		})
	}
	switch {
	case box.Nested:
		box.NamerWhy = "a nested call (CEREBRO_NESTED) makes no model call"
	case lookErr == nil:
		box.Namer, box.NamerWhy = f.namingBudget(blackbox.ClaudeResearch{
			Runner: claude.Runner{Command: cmd, Dir: root, Env: f.Environ(), Guard: shortterm.PromptGuard(eff)}, Model: eff.Distiller.Model,
		})
	}
	return box, func() { st.Close() }, nil
}

// printObject writes the answer object; on failure the object carries the
// error, so a calling model always reads one JSON object.
func printObject(w io.Writer, v any, err error) error {
	if err != nil {
		v = map[string]string{"error": err.Error()}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if encErr := enc.Encode(v); encErr != nil && err == nil {
		return encErr
	}
	return err
}
