package factory

import (
	"context"
	"errors"
	"time"

	"github.com/cerebro-mem/cerebro/internal/forget"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/org/registry"
	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/cerebro-mem/cerebro/internal/shortterm"
)

// OpenMemory opens the searchable memory of the project around
// projectDir for scope (search.OpenMemory), or with rootDir only that
// directory. notes say which extra paths were left out, and why.
func (f *Factory) OpenMemory(projectDir, rootDir, scope string) (m *search.Memory, notes []string, err error) {
	proj, err := f.ProjectRoot(projectDir)
	if err != nil {
		return nil, nil, err
	}
	m, notes, err = search.OpenMemory(search.MemorySetup{Project: proj, Root: rootDir, Scope: scope, Config: f.Config(proj),
		IndexDir: f.Paths.Indexes(), Desk: f.Paths.Home, Registry: f.Paths.Registry(), Getenv: f.Getenv})
	if errors.Is(err, registry.ErrCorrupt) {
		return nil, nil, WithHint(err, RepairHint)
	}
	if err != nil {
		return nil, nil, err
	}
	return m, notes, nil
}

// forgetInIndex re-reads (or drops) the file rel of rootDir in the index
// of project's memory.
func (f *Factory) forgetInIndex(project, rootDir, rel string, now time.Time) error {
	m, _, err := f.OpenMemory(project, "", string(search.ScopeProject))
	if err != nil {
		return err
	}
	return m.Forget(context.Background(), rootDir, rel, now)
}

// Forget moves target (a daily section, a note, a page: forget.Request)
// of the project at root to its memory folder's .trash/, paths relative
// to base, drops it from the search index and, with long.git, commits the
// removal in long-term memory.
func (f *Factory) Forget(root, target, base string) (*longterm.ForgetReport, error) {
	long := longterm.New(root)
	now := f.Now()
	return long.ForgetIn(longterm.ForgetRequest{
		Roots:  []forget.Root{shortterm.ForgetRoot(root), long.ForgetRoot()},
		Target: target, Base: base, Now: now, NoteBytes: f.NoteBytes(root), Git: f.Config(root).Long.Git,
		Reindex: func(rootDir, rel string) error { return f.forgetInIndex(root, rootDir, rel, now) },
		Warn:    f.Warn,
	})
}
