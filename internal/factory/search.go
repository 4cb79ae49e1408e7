package factory

import (
	"context"
	"errors"
	"time"

	"github.com/cerebro-mem/cerebro/internal/org/registry"
	"github.com/cerebro-mem/cerebro/internal/search"
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

// ForgetInIndex re-reads (or drops) the file rel of rootDir in the index
// of project's memory.
func (f *Factory) ForgetInIndex(project, rootDir, rel string, now time.Time) error {
	m, _, err := f.OpenMemory(project, "", string(search.ScopeProject))
	if err != nil {
		return err
	}
	return m.Forget(context.Background(), rootDir, rel, now)
}
