package search

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/org/registry"
	"github.com/cerebro-mem/cerebro/internal/project"
)

// What another project may see of a project's memory, in a search across
// projects (scope projects or everything, asked for by name, never a
// default):
//
//   - only its memory roots (memory_short, memory_long, Claude Code's
//     auto-memory folder of it), never the extra folders its own
//     search.extra_paths adds: those are its own searches' business, and
//     a project file naming them is not the user's word;
//   - nothing of a project whose effective settings say
//     share_across_projects = false (its project file may say so; only
//     the user's file or environment can say true). Such a project is not
//     named either: the answer counts how many kept to themselves;
//   - every result of another project is labelled with its registry id,
//     in its path and its citation (id:path#Lstart-Lend) and in the JSON
//     "project" field, so that no reader takes it for this project's.
//
// A registered project whose folder is gone, or whose settings do not
// load, is skipped and named with the reason.

// desk builds the desk of a search across projects from the registry:
// every other registered project that shares its memory. A registry that
// does not parse is [registry.ErrCorrupt], wrapped.
func (s MemorySetup) desk() (*Desk, error) {
	reg, err := registry.Read(s.Registry)
	if err != nil {
		return nil, fmt.Errorf("search across projects: %w", err)
	}
	d := &Desk{ID: project.ID(s.Project)}
	home := s.Getenv("HOME")
	seen := map[string]bool{sameDir(s.Project): true}
	for _, p := range reg.Projects {
		if p.ID == "" || p.Path == "" {
			continue // Validate names it in memhook registry list
		}
		if sameDir(p.Path) == sameDir(s.Project) {
			d.ID = p.ID
			continue
		}
		if seen[sameDir(p.Path)] {
			continue
		}
		seen[sameDir(p.Path)] = true
		if fi, err := os.Stat(p.Path); err != nil || !fi.IsDir() {
			d.Skipped = append(d.Skipped, Skipped{Project: p.ID, Reason: fmt.Sprintf("its folder %s cannot be reached", p.Path)})
			continue
		}
		// Loaded afresh, never from a cache of this process's: another
		// project's limits must not become this one's.
		pc := config.Load(s.Getenv, p.Path)
		if !pc.ShareAcrossProjects {
			d.OptedOut++
			continue
		}
		params, err := s.params(pc)
		if err != nil {
			d.Skipped = append(d.Skipped, Skipped{Project: p.ID, Reason: "its embedding settings: " + err.Error()})
			continue
		}
		name := p.Name
		if name == "" {
			name = p.ID
		}
		d.Others = append(d.Others, Project{
			ID: p.ID, Name: name, Root: p.Path,
			Roots: Roots(p.Path, "", home, ScopeProject),
			// its own index settings: any other would rebuild its indexes
			Params: params,
		})
	}
	return d, nil
}

// sameDir is a folder's path as compared: links resolved when they can be.
func sameDir(dir string) string {
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		return r
	}
	return filepath.Clean(dir)
}
