package factory

import (
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/longterm/night"
	"github.com/cerebro-mem/cerebro/internal/org/orgvault"
	"github.com/cerebro-mem/cerebro/internal/org/rollup"
	"github.com/cerebro-mem/cerebro/internal/shortterm"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
)

// LongStore opens the long-term memory of the project around dir, with
// that project's limits; it returns the project's root too.
func (f *Factory) LongStore(dir string) (*longterm.Store, string, error) {
	root, err := f.ProjectRoot(dir)
	if err != nil {
		return nil, "", err
	}
	return f.longStore(root), root, nil
}

// longStore is the long-term memory of the project at root with that
// project's limits; git's user settings count in every history cerebro
// commits (the global excludes).
func (f *Factory) longStore(root string) *longterm.Store {
	l := f.Config(root).Limits
	s := longterm.New(root)
	s.GitUser = gitrepo.UserDirsOf(f.Getenv)
	s.NoteBytes, s.IngestBytes = l.NoteBytes, l.IngestBytes
	return s
}

// LongChange opens the long-term memory of the project around dir and
// runs fn on it, with the project's settings, as one change committed as
// action (MemoryCommit). It returns the store for the report.
func (f *Factory) LongChange(dir, action string, fn func(*longterm.Store, *config.Effective) error) (*longterm.Store, error) {
	s, root, err := f.LongStore(dir)
	if err != nil {
		return nil, err
	}
	return s, f.MemoryCommit(s, root, action, func() error { return fn(s, f.Config(root)) })
}

// History opens the version history of a project's long-term memory as
// long.git says.
func (f *Factory) History(s *longterm.Store, root string) (*longterm.History, error) {
	eff := f.Config(root)
	return s.History(eff.Long.Git, f.Now())
}

// OpenHistory opens the version history of the long-term memory of the
// project around dir (LongStore, then History).
func (f *Factory) OpenHistory(dir string) (*longterm.History, error) {
	s, root, err := f.LongStore(dir)
	if err != nil {
		return nil, err
	}
	return f.History(s, root)
}

// MemoryCommit runs fn and commits what it changed in the project's
// long-term memory as one commit naming action (longterm.Store.Change).
func (f *Factory) MemoryCommit(s *longterm.Store, root, action string, fn func() error) error {
	return s.Change(f.Config(root).Long.Git, action, f.Now, f.Warn, fn)
}

// RollupOptions are the dashboard's inputs as the user's settings give
// them, for the rollup command and the server's dashboard alike.
func (f *Factory) RollupOptions(today time.Time) rollup.Options {
	eff := f.Config("")
	return rollup.Options{Registry: f.Paths.Registry(), Desk: f.Paths.Home, Today: today,
		FreshDays: eff.Rollup.FreshDays, CompletedDays: eff.Rollup.CompletedDays, GitDays: eff.Rollup.GitDays, NoteBytes: eff.Limits.NoteBytes}
}

// Rollup rebuilds the desk's dashboard for today, laying out the org
// vault first when it is missing (announced on Err) and reading every
// registered project, with repository activity when withGit.
func (f *Factory) Rollup(today time.Time, withGit bool) (*rollup.Report, error) {
	if err := orgvault.Ensure(f.Paths.Home, f.Now(), f.Err); err != nil {
		return nil, err
	}
	ro := f.RollupOptions(today)
	ro.WithGit = withGit
	r, err := rollup.Build(f.Paths.DeskShortDir(), ro, f.Now)
	if err != nil {
		return nil, hint.Wrap(err, "check that the desk folder "+f.Paths.DeskShortDir()+" is writable")
	}
	return r, nil
}

// NightBatch is the night pass over roots as each project's and the
// user's settings give it: every project its own options, one budget
// shared by the batch. The caller says where the batch prints.
func (f *Factory) NightBatch(roots []string, now time.Time, dryRun bool) night.Batch {
	user := f.Config("")
	return night.Batch{Roots: roots, Now: now, Clock: f.Now, DryRun: dryRun, DeskDir: f.Paths.DeskShortDir(), Options: f.night, Index: f.indexProject,
		Budget: night.SharedBudget(f.Paths.DeskShortDir(), f.Paths.State, now, user.Night.MaxCalls, user.Night.MaxTokens, dryRun)}
}

// night is one project's night by its own settings.
func (f *Factory) night(root string) (night.Options, error) {
	eff := f.Config(root)
	return night.OptionsFor(eff, f.longStore(root), f.Environ(), shortterm.PromptGuard(eff), f.Err)
}
