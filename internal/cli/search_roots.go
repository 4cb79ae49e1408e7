package cli

import (
	"errors"

	"github.com/cerebro-mem/cerebro/internal/org/registry"
	"github.com/cerebro-mem/cerebro/internal/search"
)

// memorySetup is what index, search and get share: the searchable memory
// of the project's roots in scope, and the notes on what was left out.
type memorySetup struct {
	memory *search.Memory
	notes  []string // extra paths left out, and why
}

// checkScopeFlag checks --scope (unused with --root) before any index is
// opened.
func checkScopeFlag(cmdName, root, scope string) error {
	if root != "" {
		return nil
	}
	scopes := []string{string(search.ScopeProject), string(search.ScopeOrg), string(search.ScopeAll)}
	if cmdName == "search" {
		// Only a search reaches the desk's other projects; their indexes
		// are theirs to bring up to date.
		scopes = append(scopes, string(search.ScopeProjects), string(search.ScopeEverything))
	}
	return checkChoice(cmdName, "scope", scope, scopes)
}

// memoryRoots opens the memory for --project/--root/--scope
// (search.OpenMemory). With --root only that directory is used.
func (f *Factory) memoryRoots(projectDir, rootDir, scope string) (*memorySetup, error) {
	proj, err := f.projectRoot(projectDir)
	if err != nil {
		return nil, err
	}
	m, notes, err := search.OpenMemory(search.MemorySetup{Project: proj, Root: rootDir, Scope: scope, Config: f.Config(proj),
		IndexDir: f.Paths.Indexes(), Desk: f.Paths.Home, Registry: f.Paths.Registry(), Getenv: f.Getenv})
	if errors.Is(err, registry.ErrCorrupt) {
		return nil, withHint(err, repairHint)
	}
	if err != nil {
		return nil, err
	}
	return &memorySetup{memory: m, notes: notes}, nil
}
