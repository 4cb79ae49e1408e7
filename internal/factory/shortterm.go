package factory

import (
	"context"
	"errors"
	"os/exec"
	"time"

	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/cerebro-mem/cerebro/internal/shortterm"
	"github.com/cerebro-mem/cerebro/internal/spawn"
)

// CrashEnv names a flush point ("after-read", "after-distill",
// "after-intent", "after-append", "after-commit", "after-forget") at which memhook exits
// abruptly, for the kill tests. Never set it outside tests.
const CrashEnv = "CEREBRO_TEST_CRASH"

// ShortTerm is the short-term memory as this process reaches it, logging
// to log.
func (f *Factory) ShortTerm(log *runlog.Log) *shortterm.Memory {
	m := &shortterm.Memory{
		Sessions: f.Paths.Sessions(), Budget: shortterm.BudgetDir(f.Paths.State), Registry: f.Paths.Registry(), Desk: f.Paths.Home,
		Config: f.Config, Now: f.Now, Log: log,
		Spawn: f.SpawnMemhook, Environ: f.Environ(), Crash: f.Getenv(CrashEnv),
		Index: f.indexFile,
	}
	// SessionStart's background index is memhook started again: a process
	// that cannot name its executable (memhook run in a test's process)
	// starts none, rather than failing every SessionStart.
	if f.Executable != "" {
		m.IndexProject = f.indexProject
	}
	return m
}

// indexProject brings the search index of the project at root up to
// date (memhook index, without its report).
func (f *Factory) indexProject(ctx context.Context, root string) error {
	m, _, err := f.OpenMemory(root, "", string(search.ScopeProject))
	if err != nil {
		return err
	}
	return m.Update(ctx, f.Now(), nil, func(search.RootReport) {})
}

// indexFile brings the search index of the project at root up to date
// with one of its memory files (the daily file a flush wrote).
func (f *Factory) indexFile(ctx context.Context, root, file string) error {
	m, _, err := f.openMemory(root, "", string(search.ScopeProject))
	if err != nil {
		return err
	}
	return m.IndexFile(ctx, file, f.Now())
}

// AutoRecall is the memory block auto-recall adds to prompt in the
// project at root (search.AutoRecall over the project's and the org's
// memory, with the project's extra paths), within
// search.auto_recall_budget of its own; "" when nothing fits.
func (f *Factory) AutoRecall(ctx context.Context, root, prompt string) (string, error) {
	c := f.Config(root).Search
	ctx, cancel := context.WithTimeout(ctx, time.Duration(c.AutoRecallBudget)*time.Millisecond)
	defer cancel()
	home := f.Getenv("HOME")
	roots := search.Roots(root, f.Paths.Home, home, search.ScopeAll)
	extra, _ := search.ExtraRoots(root, home, c.ExtraPaths, roots) // the hook stays quiet; index and search say what was left out
	o := rankOptions(c)
	o.Limit, o.Now, o.Base = c.AutoRecallLimit, f.Now(), root
	return search.AutoRecall(ctx, f.Paths.Indexes(), append(roots, extra...), prompt, o, c.AutoRecallScore)
}

// SpawnMemhook starts this memhook again in dir with args, detached, and
// lets it go.
func (f *Factory) SpawnMemhook(dir string, args []string) (int, error) {
	if f.Executable == "" {
		return 0, errors.New("the memhook executable is unknown")
	}
	cmd := exec.Command(f.Executable, args...)
	cmd.Dir = dir
	return spawn.Start(cmd)
}
