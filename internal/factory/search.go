package factory

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/forget"
	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/registry"
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
	return f.openMemory(proj, rootDir, scope)
}

// openMemory is OpenMemory of the project root proj: its settings made
// the plain values search takes and, for a scope across projects, the
// desk's other projects read from the registry.
func (f *Factory) openMemory(proj, rootDir, scope string) (*search.Memory, []string, error) {
	eff := f.Config(proj)
	params, err := f.searchParams(eff)
	if err != nil {
		return nil, nil, hint.Wrap(fmt.Errorf("configure embeddings: %w", err), "set embedding.provider to ollama, openai or nothing")
	}
	c := eff.Search
	m, notes, err := search.OpenMemory(search.MemorySetup{Project: proj, Root: rootDir, Scope: scope,
		IndexDir: f.Paths.Indexes(), Desk: f.Paths.Home, Home: f.Getenv("HOME"), ExtraPaths: c.ExtraPaths,
		Params: params, Options: rankOptions(c), UpdateBudget: time.Duration(c.UpdateBudgetMS) * time.Millisecond})
	if err != nil {
		return nil, nil, err
	}
	if sc, _ := search.ParseScope(scope); rootDir == "" && sc.Across() {
		if m.Desk, err = f.searchDesk(proj); errors.Is(err, registry.ErrCorrupt) {
			return nil, nil, hint.Wrap(err, RepairHint)
		} else if err != nil {
			return nil, nil, err
		}
	}
	return m, notes, nil
}

// searchParams are the index settings of a project whose settings are
// eff: any other would rebuild its indexes.
func (f *Factory) searchParams(eff *config.Effective) (search.Params, error) {
	e := eff.Embedding
	key := ""
	if e.APIKeyEnv != "" {
		key = f.Getenv(e.APIKeyEnv)
	}
	emb, err := search.NewEmbedder(search.EmbedConfig{
		Provider: e.Provider, URL: e.URL, Model: e.Model, APIKey: key,
		Timeout: time.Duration(e.TimeoutSeconds) * time.Second,
	})
	if err != nil {
		return search.Params{}, err
	}
	return search.Params{ChunkTokens: eff.Search.ChunkTokens, OverlapTokens: eff.Search.OverlapTokens, Embedder: emb, NoteBytes: eff.Limits.NoteBytes}, nil
}

// rankOptions maps the search.* settings onto the options of a search
// (Limit, Now, Base and the embedder are the caller's).
func rankOptions(c config.Search) search.Options {
	return search.Options{
		CandidatePool: c.CandidatePool, HalfLifeDays: c.HalfLifeDays, RecencyFloor: c.RecencyFloor, SnippetChars: c.SnippetChars,
		MMR: c.MMR, MMRLambda: c.MMRLambda, VectorWeight: c.VectorWeight, TextWeight: c.TextWeight,
		DateBoost: c.DateBoost, Citations: c.Citations,
	}
}

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

// searchDesk is the desk of a search across projects from proj, read
// from the registry: every other registered project that shares its
// memory. A registry that does not parse is [registry.ErrCorrupt],
// wrapped.
func (f *Factory) searchDesk(proj string) (*search.Desk, error) {
	reg, err := registry.Read(f.Paths.Registry())
	if err != nil {
		return nil, fmt.Errorf("search across projects: %w", err)
	}
	d := &search.Desk{ID: project.ID(proj)}
	home := f.Getenv("HOME")
	// each folder's links resolved once: a desk of dozens of projects
	// would otherwise resolve this project's path once a project
	self := sameDir(proj)
	seen := map[string]bool{self: true}
	for _, p := range reg.Projects {
		if p.ID == "" || p.Path == "" {
			continue // Validate names it in memhook registry list
		}
		dir := sameDir(p.Path)
		if dir == self {
			d.ID = p.ID
			continue
		}
		if seen[dir] {
			continue
		}
		seen[dir] = true
		if fi, err := os.Stat(p.Path); err != nil || !fi.IsDir() {
			d.Skipped = append(d.Skipped, search.Skipped{Project: p.ID, Reason: fmt.Sprintf("its folder %s cannot be reached", p.Path)})
			continue
		}
		// its own settings, never this project's: another project's
		// limits must not become this one's
		pc := f.Config(p.Path)
		if !pc.ShareAcrossProjects {
			d.OptedOut++
			continue
		}
		params, err := f.searchParams(pc)
		if err != nil {
			d.Skipped = append(d.Skipped, search.Skipped{Project: p.ID, Reason: "its embedding settings: " + err.Error()})
			continue
		}
		name := p.Name
		if name == "" {
			name = p.ID
		}
		d.Others = append(d.Others, search.Project{
			ID: p.ID, Name: name, Root: p.Path,
			Roots: search.Roots(p.Path, "", home, search.ScopeProject),
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
		Target: target, Base: base, Now: now, NoteBytes: f.Config(root).Limits.NoteBytes, Git: f.Config(root).Long.Git,
		Reindex: func(rootDir, rel string) error { return f.forgetInIndex(root, rootDir, rel, now) },
		Warn:    f.Warn,
	})
}
