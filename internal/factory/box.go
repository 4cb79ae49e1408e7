package factory

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/recall/tables"
	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/cerebro-mem/cerebro/internal/shortterm"
	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
	"github.com/cerebro-mem/cerebro/internal/skills/verbrun"
)

// processStart is when this memhook started: a verb's run record counts
// its seconds from here, start-up included, as the caller waited for it.
var processStart = time.Now()

// OpenBox opens the black box of dir's project behind the verbs, wired to
// the project's memory the way every door reaches it (`memhook recall`,
// `remember`, `relearn`, `deny`, `tables`, the web app, the MCP tools):
// the tables' journal in the project and their cache in the state dir,
// recall's text levels over the search indexes (level 2, and level 4 by
// vectors), the desk's other projects when asked, and the model calls of
// extreme recall and table naming within the day's budget. The caller
// calls the returned func when done.
func (f *Factory) OpenBox(dir string) (*blackbox.Box, func(), error) {
	root, err := f.ProjectRoot(dir)
	if err != nil {
		return nil, nil, err
	}
	eff := f.Config(root)
	lay := project.Layout{Root: root}
	long := lay.LongDir()
	state := filepath.Join(f.Paths.Indexes(), project.ID(root))
	st, err := tables.Open(filepath.Join(long, blackbox.TablesDir, "journal.jsonl"), filepath.Join(state, "tables.db"))
	if err != nil {
		return nil, nil, hint.Wrap(fmt.Errorf("open the relational store: %w", err), "the cache is rebuilt from the journal: delete "+filepath.Join(state, "tables.db")+" and retry")
	}
	box := &blackbox.Box{
		Root: root, LongDir: long, Tables: st,
		VectorWhy:       "no embedding provider configured",
		ResearchCalls:   eff.Recall.ExtremeMaxCalls,
		ResearchSeconds: eff.Recall.ExtremeSeconds,
		Nested:          f.Getenv(claude.NestedEnv) != "",
		OffersPath:      filepath.Join(state, "offers.jsonl"),
		ThreadsDir:      filepath.Join(state, "threads"),
		NoteBytes:       eff.Limits.NoteBytes,
		VectorMin:       eff.Recall.VectorMinScore,
	}
	if box.Nested || claude.Nested(f.Environ()) {
		box.Guard = shortterm.PromptGuard(eff)
	}
	// Level 2 is a search of the project's indexes; when they cannot be
	// set up it says why and the ladder goes on without it.
	m, _, serr := f.openMemory(root, "", string(search.ScopeProject))
	if serr == nil {
		box.Text = &blackbox.Indexed{Memory: m, Now: f.Now}
		desk := &blackbox.Desk{Indexed: blackbox.Indexed{Now: f.Now}, Open: func() (*search.Memory, error) {
			m, _, err := f.openMemory(root, "", string(search.ScopeProjects))
			return m, err
		}}
		box.Across, box.AcrossGraphs = desk, desk
	} else {
		box.TextWhy = "the memory indexes cannot be set up: " + serr.Error()
		box.AcrossWhy = box.TextWhy
	}
	if lay.LongActive() {
		box.Chronicle = longterm.New(root).Log
	}
	switch {
	case eff.Embedding.Provider == "":
	case serr != nil:
		box.VectorWhy = "the embedding provider cannot be set up: " + serr.Error()
	default:
		box.Vector = &blackbox.Vectors{Indexed: blackbox.Indexed{Memory: m, Now: f.Now}}
	}
	cmd, lookErr := exec.LookPath(eff.Distiller.Command)
	if lookErr == nil && eff.Recall.ExtremeMaxCalls > 0 {
		box.Research, box.ResearchWhy = f.budgeted(blackbox.ClaudeResearch{
			Runner:  claude.Runner{Command: cmd, Dir: root, Env: f.Environ(), Guard: shortterm.PromptGuard(eff)},
			Memhook: f.Executable, Model: eff.Distiller.Model,
		}, researchSpent)
	}
	switch {
	case box.Nested:
		box.NamerWhy = "a nested call (CEREBRO_NESTED) makes no model call"
	case lookErr == nil:
		box.Namer, box.NamerWhy = f.budgeted(blackbox.ClaudeResearch{
			Runner: claude.Runner{Command: cmd, Dir: root, Env: f.Environ(), Guard: shortterm.PromptGuard(eff)}, Model: eff.Distiller.Model,
		}, namingSpent)
	}
	return box, func() { st.Close() }, nil
}

// The day's model calls of extreme recall: every level-5 call, from the
// command line or the MCP server's recall tool, is counted against
// recall.extreme_daily_calls in the state dir, so no door spends what
// another would refuse. The limit is read from the user's settings only:
// a repository cannot raise what its recalls may spend. Naming a table
// takes from the same count, so naming and research never spend more
// together than the user allowed.

// The refusals, each with the limit.
const (
	researchSpent = "the day's %d model calls for extreme recall are spent (recall.extreme_daily_calls)"
	namingSpent   = "the day's %d model calls of memory (recall.extreme_daily_calls, shared by extreme recall and table naming) are spent"
)

// budgeted wraps a researcher so that each call takes one from the day's
// budget, its limit recall.extreme_daily_calls from the user's settings
// (no project file); when the budget is spent already there is no
// researcher, and the reason says so.
func (f *Factory) budgeted(r blackbox.Researcher, spent string) (blackbox.Researcher, string) {
	b := claude.DailyBudget(f.Paths.State, claude.UseResearch, f.Config("").Recall.ExtremeDailyCalls)
	used, err := b.Used(f.Now())
	if err == nil && used >= b.Limit {
		return nil, fmt.Sprintf(spent, b.Limit)
	}
	return budgetedResearch{r: r, now: f.Now, b: b, spent: spent}, ""
}

type budgetedResearch struct {
	r     blackbox.Researcher
	now   func() time.Time
	b     claude.Budget
	spent string // the refusal, with the limit
}

// Call implements blackbox.Researcher.
func (b budgetedResearch) Call(ctx context.Context, prompt string, read bool) (string, error) {
	ok, err := b.b.Take(b.now())
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf(b.spent, b.b.Limit)
	}
	return b.r.Call(ctx, prompt, read)
}

// openVerbBox opens dir's box for a verb: the request is guarded first
// (the run record keeps it), then the box is opened; done closes it.
func (f *Factory) openVerbBox(dir string, raw blackbox.Raw) (*blackbox.Box, blackbox.Raw, func(), error) {
	raw, err := f.KeepSecretsOutOfRequest(dir, raw)
	if err != nil {
		return nil, nil, nil, err
	}
	box, done, err := f.OpenBox(dir)
	if err != nil {
		return nil, nil, nil, err
	}
	return box, raw, done, nil
}

// Recall answers one recall request as `memhook recall` prints it — the
// answer object with its run id, the run counted from this process's
// start.
func (f *Factory) Recall(ctx context.Context, dir string, raw blackbox.Raw) (any, error) {
	return f.recallSince(ctx, processStart, dir, raw)
}

// recallSince is Recall for a request that came in at start: the MCP
// server answers many in one process.
func (f *Factory) recallSince(ctx context.Context, start time.Time, dir string, raw blackbox.Raw) (any, error) {
	box, raw, done, err := f.openVerbBox(dir, raw)
	if err != nil {
		return nil, err
	}
	defer done()
	return blackbox.Recall(ctx, box, raw, f.Now(), func(ans any) any { return f.recordVerbSince(start, runrec.KindRecall, dir, raw, ans) })
}

// Remember makes one remember request as `memhook remember` prints it.
// When part of memory took the text and another part failed, it returns
// both the answer (its error field saying what failed) and the error.
func (f *Factory) Remember(ctx context.Context, dir string, raw blackbox.Raw) (any, error) {
	return f.rememberSince(ctx, processStart, dir, raw)
}

// rememberSince is Remember for a request that came in at start.
func (f *Factory) rememberSince(ctx context.Context, start time.Time, dir string, raw blackbox.Raw) (any, error) {
	box, raw, done, err := f.openVerbBox(dir, raw)
	if err != nil {
		return nil, err
	}
	defer done()
	return blackbox.Remember(ctx, box, raw, f.Now(), func(ans any) any { return f.recordVerbSince(start, runrec.KindRemember, dir, raw, ans) })
}

// Relearn takes an artifact back into dir's project's memory
// (blackbox.Relearn) and records the run; raw is the request as its run
// record keeps it, guarded like the summary it carries.
func (f *Factory) Relearn(ctx context.Context, dir string, raw blackbox.Raw, req blackbox.RelearnRequest) (any, error) {
	box, raw, done, err := f.openVerbBox(dir, raw)
	if err != nil {
		return nil, err
	}
	defer done()
	return blackbox.Relearn(ctx, box, req, f.Now(), func(ans any) any {
		return f.recordVerbSince(processStart, runrec.KindRelearn, dir, raw, ans)
	})
}

// recordVerbSince records a recall, remember or relearn run that started
// at start (package verbrun) and returns the answer carrying its run id.
func (f *Factory) recordVerbSince(start time.Time, kind, dir string, raw blackbox.Raw, ans any) any {
	root, err := f.ProjectRoot(dir)
	if err != nil || ans == nil {
		return ans
	}
	ev := f.Config(root).Evolution
	rec := verbrun.Recorder{Project: f.Skills(root), Parent: f.Getenv(evolve.ParentEnv), Warn: f.Err,
		Memhook: f.Executable, Env: f.Environ(), Nested: f.Getenv(claude.NestedEnv) != "",
		ShadowShare: ev.ShadowShare, ShadowBudget: ev.DailyBudget}
	return rec.Record(f.Now(), verbrun.Verb{Kind: kind, Seconds: time.Since(start).Seconds(), Raw: raw, Answer: ans})
}
