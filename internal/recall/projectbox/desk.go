package projectbox

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/search"
)

// deskText is recall's level 2 across the desk (scope "projects"): a
// search across projects (search.Memory with its Desk, which says what
// another project may see) points at line ranges, which
// blackbox.ScanProjects scores, every project's alike.
type deskText struct {
	indexedText
	open func() (*search.Memory, error) // the desk read from the registry, at the first search
}

// prepare reads the desk from the registry, once.
func (t *deskText) prepare() error {
	if t.memory == nil {
		m, err := t.open()
		if err != nil {
			return err
		}
		t.memory = m
	}
	return nil
}

// Graphs implements blackbox.GraphLister: the projects a search across
// projects reaches (the same rules: registered, sharing their memory),
// their long-term memory.
func (t *deskText) Graphs() ([]blackbox.ProjectGraph, error) {
	if err := t.prepare(); err != nil {
		return nil, err
	}
	var out []blackbox.ProjectGraph
	for _, p := range t.memory.Desk.Others {
		out = append(out, blackbox.ProjectGraph{ID: p.ID, LongDir: project.Layout{Root: p.Root}.LongDir()})
	}
	return out, nil
}

// Search implements blackbox.TextSearcher.
func (t *deskText) Search(ctx context.Context, query string, limit int) ([]blackbox.Hit, error) {
	if err := t.prepare(); err != nil {
		return nil, err
	}
	m := *t.memory
	m.Options = t.options(limit * 4)
	m.Options.Embedder, m.Options.MMR = nil, false // text, and candidates: as indexedText
	resp, err := m.Query(ctx, query, limit*4, t.now(), nil)
	if err != nil {
		return nil, err
	}
	projects := []blackbox.ProjectRanges{{Base: m.Base}}
	roots := [][]search.Root{m.Roots}
	at := map[string]int{"": 0}
	for _, p := range m.Desk.Others {
		at[p.ID] = len(projects)
		projects, roots = append(projects, blackbox.ProjectRanges{ID: p.ID, Base: p.Root}), append(roots, p.Roots)
	}
	for _, r := range resp.Results {
		id, rel := "", r.Path
		if r.Project != "" && r.Project != m.Desk.ID {
			id, rel, _ = strings.Cut(r.Path, ":")
		}
		i, ok := at[id]
		if !ok {
			continue
		}
		abs := rel
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(projects[i].Base, filepath.FromSlash(rel))
		}
		if !excluded(t.scan, roots[i], abs) {
			projects[i].Ranges = append(projects[i].Ranges, blackbox.Range{Path: abs, From: r.StartLine, To: r.EndLine})
		}
	}
	return blackbox.ScanProjects(projects, query, limit), nil
}
