package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// A search across projects (scope projects and everything) searches this
// project's memory and every other project's on the desk's registry that
// shares it, and ranks the results together, each labelled with its
// project (its registry id; another project's citations read
// id:path#Lstart-Lend).
//
// Every root is a part of one desk index (deskdb.go), scored with the
// desk's word statistics, so the search is the one [Search] of a project,
// over more roots: one FTS5 query picks the best chunks of every root in
// scope, ranked by the same formulas, and one passage scores the same in
// a search of its project and in a search of the desk. Nothing is built
// on the search's clock: this project's roots are caught up as its own
// search does them (within the update budget); another project's are
// searched as they were last indexed (by the flush that wrote their daily
// notes, `memhook index`, the night job, SessionStart's background work),
// and a root never indexed is named in the answer rather than waited for.

// Project is one of the desk's other projects as a search across projects
// reads it: its memory roots, and the index settings its own searches
// keep its indexes with (any other settings would rebuild them).
type Project struct {
	ID     string // its registry id: the label of its results
	Name   string
	Root   string
	Roots  []Root
	Params Params
}

// Skipped is a registered project a search across projects left out.
type Skipped struct {
	Project string `json:"project"`
	Reason  string `json:"reason"`
}

// Desk is the desk's other projects, searched with a [Memory]'s own.
type Desk struct {
	// ID labels this project's own results.
	ID string
	// Others are searched in this order when their scores tie; this
	// project's results come first on a tie.
	Others []Project
	// Skipped are registered projects left out, named in every answer.
	Skipped []Skipped
	// OptedOut counts the registered projects that keep their memory to
	// themselves (share_across_projects = false): counted, never named.
	OptedOut int
}

// AcrossReport is what a search across projects covered.
type AcrossReport struct {
	// Self is this project's id, which its own results carry.
	Self string `json:"self"`
	// Projects is how many projects were in scope, this one included
	// (not those skipped).
	Projects int `json:"projects"`
	// Searched is how many of them were searched (all their memory or
	// some: see NotIndexed).
	Searched int `json:"searched"`
	// NotIndexed names the other projects' memory folders not yet
	// indexed, which the search could not read (`memhook index` in that
	// project, or its next session, indexes them).
	NotIndexed []Skipped `json:"not_indexed,omitempty"`
	// Skipped names the registered projects left out, and why.
	Skipped []Skipped `json:"skipped,omitempty"`
	// OptedOut counts the registered projects that share no memory.
	OptedOut int `json:"opted_out,omitempty"`
}

// queryDesk is [Memory.Query] across the desk: this project's roots
// caught up as its own search does, the other projects' roots as they are
// indexed, all searched by one [Search].
func (m *Memory) queryDesk(ctx context.Context, query string, limit int, now time.Time, within *DayRange) (*Response, error) {
	d := m.Desk
	// one update budget for the whole search: this project's memory
	// caught up first, then what is left indexes other projects' memory
	// never indexed before (a project registered but never worked in
	// since); past it, what is not indexed is named, not waited for
	uctx, cancel := context.WithTimeout(ctx, m.UpdateBudget)
	defer cancel()
	idxs, notes, err := m.open(ctx, now)
	defer func() { closeIndexes(idxs) }()
	if err != nil {
		return nil, err
	}
	rep := &AcrossReport{Self: d.ID, Projects: 1 + len(d.Others), Searched: 1, Skipped: d.Skipped, OptedOut: d.OptedOut}
	for _, p := range d.Others {
		found := false
		for _, r := range p.Roots {
			if fi, err := os.Stat(r.Dir); err != nil || !fi.IsDir() {
				continue
			}
			ix, why, err := m.indexedRoot(uctx, r, p, now)
			if err != nil {
				return nil, err
			}
			if why != "" {
				rep.NotIndexed = append(rep.NotIndexed, Skipped{Project: p.ID, Reason: DisplayPath(r.Dir, p.Root) + " " + why})
			}
			if ix == nil {
				continue
			}
			ix.project, ix.base = p.ID, p.Root
			idxs = append(idxs, ix)
			found = true
		}
		if found {
			rep.Searched++
		}
	}
	o := m.Options
	o.Limit, o.Now, o.Base, o.Within = limit, now, m.Base, within
	// one pool for every root asked: the desk's best chunks by FTS5's
	// rank, however many projects it holds, scored by cerebro's BM25F and
	// proximity; passages are picked in the best of them, a project's pool
	pool := max(o.CandidatePool, o.Limit, 50)
	o.CandidatePool, o.passagePool = deskPool*pool, pool
	// vectors are not comparable between projects with other embedders
	o.Embedder = nil
	resp, err := Search(ctx, idxs, query, o)
	if err != nil {
		return nil, err
	}
	for i := range resp.Results {
		if resp.Results[i].Project == "" && !m.orgResult(resp.Results[i].Path) {
			resp.Results[i].Project = d.ID
		}
	}
	if n := len(rep.NotIndexed); n > 0 {
		names := make([]string, 0, n)
		for _, s := range rep.NotIndexed {
			names = append(names, s.Project+": "+s.Reason)
		}
		notes = append(notes, fmt.Sprintf("not searched, not indexed yet (memhook index in the project indexes it): %s", strings.Join(names, "; ")))
	}
	for _, s := range rep.Skipped {
		notes = append(notes, fmt.Sprintf("project %s was not searched: %s", s.Project, s.Reason))
	}
	resp.Notes = append(notes, resp.Notes...)
	resp.Across = rep
	return resp, nil
}

// indexedRoot opens another project's root as it is indexed; a root
// never indexed is indexed within what is left of ctx's budget, keeping
// what it read. why says what the search cannot read of it.
func (m *Memory) indexedRoot(ctx context.Context, r Root, p Project, now time.Time) (*Index, string, error) {
	ix, err := OpenIndexed(m.IndexDir, r, p.Params)
	if err != nil || ix != nil {
		return ix, "", err
	}
	if ctx.Err() != nil {
		return nil, "is not indexed yet", nil
	}
	if ix, err = Open(m.IndexDir, r, p.Params); err != nil {
		return nil, "", err
	}
	st, err := ix.Update(ctx, now, nil)
	if err != nil {
		ix.Close()
		return nil, "", err
	}
	if !st.Complete {
		return ix, fmt.Sprintf("is partly indexed (%d of %d files not yet read)", st.Pending, st.Files), nil
	}
	return ix, "", nil
}

// deskPool is how many times a project's candidate pool a search across
// the desk takes from FTS5: a year desk's answer chunk ranked below a
// hundred chunks of noise by FTS5's rank and first by cerebro's.
const deskPool = 4

// orgResult reports whether a result's path lies in the org vault
// (scope everything): it belongs to no project and carries no label.
func (m *Memory) orgResult(path string) bool {
	if !filepath.IsAbs(path) {
		return false
	}
	for _, root := range m.Roots {
		if _, in := within(root.Dir, path); in && root.Kind == KindOrg {
			return true
		}
	}
	return false
}

// split reads a path of another project's memory, id:path as its
// results print it: that project and the path in it. This project's own
// id is taken off too (p is nil then). ok is false for a plain path.
func (d *Desk) split(path string) (p *Project, rest string, ok bool) {
	if d == nil {
		return nil, "", false
	}
	id, rest, found := strings.Cut(path, ":")
	if !found || id == "" {
		return nil, "", false
	}
	if id == d.ID {
		return nil, rest, true
	}
	for i := range d.Others {
		if d.Others[i].ID == id {
			return &d.Others[i], rest, true
		}
	}
	return nil, "", false
}

// get reads lines of a memory file of this project, as [Memory.Get] does
// its own; the path it answers with carries the project's id.
func (p *Project) get(path string, from, lines int) (Got, error) {
	abs, err := Resolve(p.Roots, p.Root, path)
	if err != nil {
		return Got{}, err
	}
	text, err := ReadLines(abs, from, lines, p.Params.NoteBytes)
	if err != nil {
		return Got{}, err
	}
	return Got{Text: text, Path: p.ID + ":" + DisplayPath(abs, p.Root)}, nil
}
