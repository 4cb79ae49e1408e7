package blackbox

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/search"
)

// Indexed is recall's level 2 over the search indexes of the project's
// memory roots (internal/search): search ranks the passages and measures
// the share of the question each one holds (its Score, which MinCoverage
// gates); the box only cuts a result at its sections, so that a hit is
// one section — one remembered record — with its marker's id, and never
// shows a neighbour's text.
type Indexed struct {
	Memory *search.Memory
	Now    func() time.Time
}

func (t *Indexed) open(ctx context.Context) ([]*search.Index, error) {
	var idxs []*search.Index
	for _, r := range t.Memory.Existing() {
		ix, err := search.Open(t.Memory.IndexDir, r, t.Memory.Params)
		if err != nil {
			closeAll(idxs)
			return nil, err
		}
		idxs = append(idxs, ix)
		if _, err := ix.Update(ctx, t.Now(), nil); err != nil && ctx.Err() == nil {
			closeAll(idxs)
			return nil, err
		}
	}
	return idxs, nil
}

func closeAll(idxs []*search.Index) {
	for _, ix := range idxs {
		ix.Close()
	}
}

// options are the memory's ranking settings for limit results now: text
// only (vectors are level 4), every strong passage (no MMR), each at most
// PassageChars long.
func (t *Indexed) options(limit int) search.Options {
	o := t.Memory.Options
	o.Limit, o.Now, o.Base = limit, t.Now(), t.Memory.Base
	o.Embedder, o.MMR, o.SnippetChars = nil, false, PassageChars
	return o
}

// abs is a result's path as a file path.
func (t *Indexed) abs(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(t.Memory.Base, filepath.FromSlash(p))
}

// search runs the memory's search over its indexes, caught up first
// within the update budget, for limit results with the options tune sets.
func (t *Indexed) search(ctx context.Context, query string, limit int, tune func(*search.Options)) (*search.Response, error) {
	uctx, cancel := context.WithTimeout(ctx, t.Memory.UpdateBudget)
	defer cancel()
	idxs, err := t.open(uctx)
	if err != nil {
		return nil, err
	}
	defer closeAll(idxs)
	o := t.options(limit)
	tune(&o)
	return search.Search(ctx, idxs, query, o)
}

// Search implements [TextSearcher].
func (t *Indexed) Search(ctx context.Context, query string, limit int) ([]Hit, error) {
	resp, err := t.search(ctx, query, limit*2, func(*search.Options) {})
	if err != nil {
		return nil, fmt.Errorf("search the memory indexes: %w", err)
	}
	c := newCutter(t.Memory, query)
	for _, r := range resp.Results {
		if abs := t.abs(r.Path); !leftOut(t.Memory.Roots, abs) {
			c.add(r, "", t.Memory.Base, abs)
		}
	}
	return c.hits(limit)
}

// Relearned implements [RelearnFinder]: the search the rest of memory
// uses, its informative-weight gate at RelearnCover, over the relearned
// summaries alone (a page keeps the question it answered, in the words
// of the research walk's rephrasings too). A hit's score is the share of
// the question's informative weight it holds.
func (t *Indexed) Relearned(ctx context.Context, query string, limit int) ([]Hit, error) {
	resp, err := t.search(ctx, query, limit*4, func(o *search.Options) {
		o.HalfLifeDays = 0 // an answer kept does not fade
		o.MinCover = RelearnCover
	})
	if err != nil {
		return nil, err
	}
	var hits []Hit
	seen := map[string]bool{}
	files := map[string][]*section{}
	for _, r := range resp.Results {
		abs := t.abs(r.Path)
		if !strings.Contains(filepath.ToSlash(abs), "/"+RelearnDir+"/") || leftOut(t.Memory.Roots, abs) {
			continue
		}
		for _, h := range cut(files, t.Memory.Base, abs, r) {
			if h.Object == "" || seen[h.Fact()] {
				continue // the summary's own passage, once
			}
			seen[h.Fact()] = true
			h.Score = r.Coverage()
			hits = append(hits, h)
		}
		if len(hits) == limit {
			break
		}
	}
	return hits, nil
}

// IndexFile implements [Indexer]: the root holding the file is caught up
// at once, so the next recall's index already has it.
func (t *Indexed) IndexFile(ctx context.Context, path string) error {
	for _, r := range t.Memory.Existing() {
		if rel, err := filepath.Rel(r.Dir, path); err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		ix, err := search.Open(t.Memory.IndexDir, r, t.Memory.Params)
		if err != nil {
			return err
		}
		defer ix.Close()
		st, err := ix.Update(ctx, t.Now(), nil)
		if err != nil {
			return err
		}
		if !st.Complete {
			return fmt.Errorf("index of %s is behind: %d files not yet read", r.Dir, st.Pending)
		}
		return nil
	}
	return nil
}

// Vectors is recall's level 4: the same indexes searched by embedding
// similarity alone (the chunks are embedded as the index catches up). A
// hit's score is the cosine similarity of its chunk to the question.
type Vectors struct {
	Indexed
}

// Search implements [TextSearcher].
func (t *Vectors) Search(ctx context.Context, query string, limit int) ([]Hit, error) {
	resp, err := t.search(ctx, query, limit*2, func(o *search.Options) {
		o.Embedder = t.Memory.Options.Embedder
		o.VectorWeight, o.TextWeight, o.HalfLifeDays = 1, 0, 0
	})
	if err != nil {
		return nil, err
	}
	if resp.Mode != search.ModeHybrid {
		return nil, fmt.Errorf("no chunk has a vector yet (%s)", strings.Join(resp.Notes, "; "))
	}
	seen := map[string]bool{}
	files := map[string][]*section{}
	var hits []Hit
	for _, r := range resp.Results {
		abs := t.abs(r.Path)
		if leftOut(t.Memory.Roots, abs) {
			continue
		}
		// A chunk may span several sections: each gets its similarity.
		for _, h := range cut(files, t.Memory.Base, abs, r) {
			if key := h.Path + "\x00" + fmt.Sprint(h.at); !seen[key] {
				seen[key] = true
				h.Score = r.Score
				hits = append(hits, h)
			}
		}
	}
	return hits[:min(limit, len(hits))], nil
}

// Desk is recall's level 2 across the desk (scope "projects"): a search
// across projects (search.Memory with its Desk, which says what another
// project may see), every project's passages ranked and measured alike.
type Desk struct {
	Indexed
	Open func() (*search.Memory, error) // the desk read from the registry, at the first search
}

// prepare reads the desk from the registry, once.
func (t *Desk) prepare() error {
	if t.Memory == nil {
		m, err := t.Open()
		if err != nil {
			return err
		}
		t.Memory = m
	}
	return nil
}

// Graphs implements [GraphLister]: the projects a search across projects
// reaches (the same rules: registered, sharing their memory), their
// long-term memory.
func (t *Desk) Graphs() ([]ProjectGraph, error) {
	if err := t.prepare(); err != nil {
		return nil, err
	}
	var out []ProjectGraph
	for _, p := range t.Memory.Desk.Others {
		out = append(out, ProjectGraph{ID: p.ID, LongDir: project.Layout{Root: p.Root}.LongDir()})
	}
	return out, nil
}

// Search implements [TextSearcher].
func (t *Desk) Search(ctx context.Context, query string, limit int) ([]Hit, error) {
	if err := t.prepare(); err != nil {
		return nil, err
	}
	m := *t.Memory
	m.Options = t.options(limit * 2)
	resp, err := m.Query(ctx, query, limit*2, t.Now(), nil)
	if err != nil {
		return nil, fmt.Errorf("search the desk's indexes: %w", err)
	}
	type place struct {
		base  string
		roots []search.Root
	}
	at := map[string]place{"": {m.Base, m.Roots}}
	for _, p := range m.Desk.Others {
		at[p.ID] = place{p.Root, p.Roots}
	}
	c := newCutter(t.Memory, query)
	for _, r := range resp.Results {
		id, rel := "", r.Path
		if r.Project != "" && r.Project != m.Desk.ID {
			id, rel, _ = strings.Cut(r.Path, ":")
		}
		p, ok := at[id]
		if !ok {
			continue
		}
		abs := rel
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(p.base, filepath.FromSlash(rel))
		}
		if !leftOut(p.roots, abs) {
			c.add(r, id, p.base, abs)
		}
	}
	return c.hits(limit)
}

// A cutter turns level 2's search results into hits, in search's order:
// each result is cut at its sections, so that a hit is one section (one
// remembered record) and never answers with a neighbour's words; each
// hit is scored by search's share of the question's informative weight
// in what it shows (its heading and lines, see search.Share), and the
// hits of one result go best first. A section is one hit, at the first
// result showing it.
type cutter struct {
	m      *search.Memory
	query  string
	files  map[string][]*section
	seen   map[string]bool
	out    []Hit
	groups [][2]int // the runs of out cut from one result
}

func newCutter(m *search.Memory, query string) *cutter {
	return &cutter{m: m, query: query, files: map[string][]*section{}, seen: map[string]bool{}}
}

// add takes one result of project ("" for the asking one), whose root is
// base and whose file is abs.
func (c *cutter) add(r search.Result, project, base, abs string) {
	from := len(c.out)
	for _, h := range cut(c.files, base, abs, r) {
		if project != "" {
			h.Path, h.Project = project+":"+h.Path, project
		}
		if key := h.Path + "\x00" + fmt.Sprint(h.at); !c.seen[key] {
			c.seen[key] = true
			c.out = append(c.out, h)
		}
	}
	c.groups = append(c.groups, [2]int{from, len(c.out)})
}

// hits are the first limit hits, scored.
func (c *cutter) hits(limit int) ([]Hit, error) {
	texts := make([]string, len(c.out))
	for i, h := range c.out {
		texts[i] = h.Heading + "\n" + h.Text
	}
	shares, err := search.Share(c.m.IndexDir, c.m.Roots, c.query, texts)
	if err != nil {
		return nil, fmt.Errorf("measure the passages of a search: %w", err)
	}
	for i := range c.out {
		c.out[i].Score = shares[i]
	}
	for _, g := range c.groups {
		run := c.out[g[0]:g[1]]
		sort.SliceStable(run, func(i, j int) bool { return run[i].Score > run[j].Score })
	}
	return c.out[:min(limit, len(c.out))], nil
}

// cut is the hits result r shows in the file abs (its sections read once
// into files), one for each section it overlaps with text: the lines of
// the result's snippet in that section, markers out.
func cut(files map[string][]*section, base, abs string, r search.Result) []Hit {
	secs, ok := files[abs]
	if !ok {
		secs = sections(abs)
		files[abs] = secs
	}
	rel, err := filepath.Rel(base, abs)
	if err != nil {
		rel = abs
	}
	rel = filepath.ToSlash(rel)
	lines := strings.Split(r.Snippet, "\n")
	if len(lines) != r.EndLine-r.StartLine+1 {
		// not one snippet line per line cited: shown whole, in the
		// section of its first line
		for _, s := range secs {
			if s.line <= r.StartLine && r.StartLine <= s.end {
				h := describe(rel, s)
				h.Text = strings.TrimSpace(marker.ReplaceAllString(r.Snippet, ""))
				h.Line, h.End = r.StartLine, r.EndLine
				return []Hit{h}
			}
		}
		return nil
	}
	var out []Hit
	for _, s := range secs {
		from, to := max(s.first, r.StartLine), min(s.end, r.EndLine)
		shown := make([]string, 0, max(to-from+1, 0))
		for n := from; n <= to; n++ {
			shown = append(shown, marker.ReplaceAllString(lines[n-r.StartLine], ""))
		}
		for len(shown) > 0 && strings.TrimSpace(shown[0]) == "" {
			shown, from = shown[1:], from+1
		}
		for len(shown) > 0 && strings.TrimSpace(shown[len(shown)-1]) == "" {
			shown, to = shown[:len(shown)-1], to-1
		}
		if len(shown) == 0 {
			continue
		}
		h := describe(rel, s)
		h.Text, h.Line, h.End = strings.Join(shown, "\n"), from, to
		out = append(out, h)
	}
	return out
}

// skippedDirs are the memory folders level 2 leaves out: sources, the
// graph's edges, the tables' journal and the denials state nothing a
// passage answers with.
var skippedDirs = []string{"raw", "graph", TablesDir, DenialsDir}

// leftOut reports whether level 2 leaves the file abs out: no root holds
// it, or it lies in a hidden or skipped folder, or it is a generated
// list (see GeneratedFiles).
func leftOut(roots []search.Root, abs string) bool {
	for _, r := range roots {
		rel, err := filepath.Rel(r.Dir, abs)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		parts := strings.Split(filepath.ToSlash(rel), "/")
		for _, d := range parts[:len(parts)-1] {
			if strings.HasPrefix(d, ".") || contains(skippedDirs, d) {
				return true
			}
		}
		for _, f := range GeneratedFiles {
			if strings.EqualFold(parts[len(parts)-1], f) {
				return true
			}
		}
		return false
	}
	return true
}

var (
	_ TextSearcher  = (*Indexed)(nil)
	_ Indexer       = (*Indexed)(nil)
	_ RelearnFinder = (*Indexed)(nil)
	_ TextSearcher  = (*Vectors)(nil)
	_ TextSearcher  = (*Desk)(nil)
	_ GraphLister   = (*Desk)(nil)
)
