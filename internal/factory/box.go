package factory

import (
	"context"
	"time"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/recall/projectbox"
	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
	"github.com/cerebro-mem/cerebro/internal/skills/verbrun"
)

// processStart is when this memhook started: a verb's run record counts
// its seconds from here, start-up included, as the caller waited for it.
var processStart = time.Now()

// BoxProject is the project of dir as its black box opens it
// (internal/recall/projectbox).
func (f *Factory) BoxProject(dir string) (projectbox.Project, error) {
	root, err := f.ProjectRoot(dir)
	if err != nil {
		return projectbox.Project{}, err
	}
	eff := f.Config(root)
	return projectbox.Project{
		Root: root, Config: eff, StateDir: f.Paths.State, IndexDir: f.Paths.Indexes(),
		Memory: func(sc search.Scope) (*search.Memory, error) {
			m, _, err := f.openMemory(root, "", string(sc))
			return m, err
		},
		Getenv: f.Getenv, Environ: f.Environ, Now: f.Now, Executable: f.Executable,
	}, nil
}

// OpenBox opens the black box of dir's project behind the verbs; the
// caller calls the returned func when done.
func (f *Factory) OpenBox(dir string) (*blackbox.Box, func(), error) {
	p, err := f.BoxProject(dir)
	if err != nil {
		return nil, nil, err
	}
	return projectbox.Open(p)
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
	p, err := f.BoxProject(dir)
	if err != nil {
		return nil, err
	}
	if raw, err = f.KeepSecretsOutOfRequest(dir, raw); err != nil {
		return nil, err
	}
	return projectbox.Recall(ctx, p, raw, func(ans any) any { return f.recordVerbSince(start, runrec.KindRecall, dir, raw, ans) })
}

// Remember makes one remember request as `memhook remember` prints it.
// When part of memory took the text and another part failed, it returns
// both the answer (its error field saying what failed) and the error.
func (f *Factory) Remember(ctx context.Context, dir string, raw blackbox.Raw) (any, error) {
	return f.rememberSince(ctx, processStart, dir, raw)
}

// rememberSince is Remember for a request that came in at start.
func (f *Factory) rememberSince(ctx context.Context, start time.Time, dir string, raw blackbox.Raw) (any, error) {
	p, err := f.BoxProject(dir)
	if err != nil {
		return nil, err
	}
	if raw, err = f.KeepSecretsOutOfRequest(dir, raw); err != nil {
		return nil, err
	}
	return projectbox.Remember(ctx, p, raw, func(ans any) any { return f.recordVerbSince(start, runrec.KindRemember, dir, raw, ans) })
}

// Relearn takes an artifact back into dir's project's memory
// (projectbox.Relearn) and records the run; raw is the request as its run
// record keeps it.
func (f *Factory) Relearn(ctx context.Context, dir string, raw blackbox.Raw, req blackbox.RelearnRequest) (any, error) {
	p, err := f.BoxProject(dir)
	if err != nil {
		return nil, err
	}
	// The run record keeps the request: guarded like the summary it carries.
	if raw, err = f.KeepSecretsOutOfRequest(dir, raw); err != nil {
		return nil, err
	}
	return projectbox.Relearn(ctx, p, req, func(ans any) any {
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
