package cli

import (
	"context"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/search"
)

// deskText is recall's level 2 across the desk (scope "projects"): a
// search across projects (search.Memory with its Desk, the rules of
// search_desk.go) points at line ranges, each project's passages are
// scored as this project's are, and another project's carry its id in
// their path (id:path) and their Project.
type deskText struct {
	indexedText
	root string // the project, its desk read from the registry at the first search
}

// prepare reads the desk from the registry, once.
func (t *deskText) prepare() error {
	if t.setup == nil {
		s, err := t.f.memoryRoots(t.root, "", string(search.ScopeProjects))
		if err != nil {
			return err
		}
		t.setup = s
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
	for _, p := range t.setup.memory.Desk.Others {
		out = append(out, blackbox.ProjectGraph{ID: p.ID, LongDir: project.Layout{Root: p.Root}.LongDir()})
	}
	return out, nil
}

// Search implements blackbox.TextSearcher.
func (t *deskText) Search(ctx context.Context, query string, limit int) ([]blackbox.Hit, error) {
	if err := t.prepare(); err != nil {
		return nil, err
	}
	m := *t.setup.memory
	m.Options = t.setup.searchOptions(limit*4, t.f.Now())
	m.Options.Embedder, m.Options.MMR = nil, false // text, and candidates: as indexedText
	resp, err := m.Query(ctx, query, limit*4, t.f.Now(), nil)
	if err != nil {
		return nil, err
	}
	type group struct {
		base   string
		roots  []search.Root
		ranges []blackbox.Range
	}
	groups := map[string]*group{"": {base: t.setup.project, roots: t.setup.roots}}
	for _, p := range m.Desk.Others {
		groups[p.ID] = &group{base: p.Root, roots: p.Roots}
	}
	for _, r := range resp.Results {
		id, rel := "", r.Path
		if r.Project != "" && r.Project != m.Desk.ID {
			id, rel, _ = strings.Cut(r.Path, ":")
		}
		g := groups[id]
		if g == nil {
			continue
		}
		abs := rel
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(g.base, filepath.FromSlash(rel))
		}
		if !t.excludedIn(g.roots, abs) {
			g.ranges = append(g.ranges, blackbox.Range{Path: abs, From: r.StartLine, To: r.EndLine})
		}
	}
	var hits []blackbox.Hit
	for id, g := range groups {
		for _, h := range blackbox.ScanRanges(g.base, g.ranges, query, limit) {
			if id != "" {
				h.Path, h.Project = id+":"+h.Path, id
			}
			hits = append(hits, h)
		}
	}
	// every project's passages scored alike (the share of the question's
	// words): the best of them, this project's first on a tie
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		if (hits[i].Project == "") != (hits[j].Project == "") {
			return hits[i].Project == ""
		}
		return hits[i].Path+"\x00"+strconv.Itoa(hits[i].Line) < hits[j].Path+"\x00"+strconv.Itoa(hits[j].Line)
	})
	return hits[:min(limit, len(hits))], nil
}

// excludedIn is indexedText.excluded over another set of roots.
func (t *deskText) excludedIn(roots []search.Root, abs string) bool {
	for _, r := range roots {
		if rel, err := filepath.Rel(r.Dir, abs); err == nil && !strings.HasPrefix(rel, "..") {
			return t.scan.Excluded(filepath.ToSlash(rel))
		}
	}
	return true
}
