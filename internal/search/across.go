package search

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cerebro-mem/cerebro/internal/text/textan"
	"golang.org/x/sync/errgroup"
)

// A search across projects (scope projects and everything) searches this
// project's memory and every other project's on the desk's registry that
// shares it, and ranks the results together, each labelled with its
// project (its registry id; another project's citations read
// id:path#Lstart-Lend).
//
// Comparable scores. Each index scores BM25 from its own word statistics
// (how many of its chunks hold each word), so the same passage scores
// differently in a small index and in a large one, and a word that every
// note of one project says ("billing", in the billing service) counts for
// little there and much in the others: the project the question is about
// would lose. A search across projects therefore gives every index the
// statistics of the whole desk — its chunks and each word's, over every
// project in scope — as if all were one memory. The analyser, the field
// weights and the formulas are the same everywhere already, so one passage
// then scores the same in whichever index it lies. bench/across measured
// the alternatives (each index's own statistics; each project's scores
// over its best; reciprocal rank fusion of the projects' lists) on
// questions whose project is known; see docs/search.md.
//
// Cost. Opening and searching an index costs about what a search of one
// small project does, and a desk of 50 projects holds 150 of them, so a
// search does not open them all: the catalog (catalog.go) tells, by a few
// stats and one query, that another project's memory has not changed
// since its indexes were last read, what its words' statistics are, and
// how much its best passage could score for the query (from each word's
// best chunks, so that words meeting in no chunk are not added up). The
// other projects' indexes are then searched best bound first, each alone
// (a project's wiki is not opened when only its daily notes can reach the
// results), a few at a time (at most GOMAXPROCS), each with a bounded
// candidate pool, until no index left can score above the results
// already found, or the budget ends; the answer says how many projects
// and indexes were searched, how many projects could not reach the
// results, and which were not reached in time.

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
	// Budget bounds the search of the other projects, catching their
	// indexes up included; 0 means [DefaultDeskBudget]. This project's
	// memory is searched whatever it says.
	Budget time.Duration
	// Workers bounds the projects searched at once; 0 means GOMAXPROCS.
	Workers int
	// Exhaustive searches every project with a word of the query, bound
	// or not (tests and benchmarks compare).
	Exhaustive bool
}

// DefaultDeskBudget bounds the other projects' part of a search.
const DefaultDeskBudget = 2 * time.Second

// AcrossReport is what a search across projects covered.
type AcrossReport struct {
	// Self is this project's id, which its own results carry.
	Self string `json:"self"`
	// Projects is how many projects were in scope, this one included.
	Projects int `json:"projects"`
	// Searched is how many of them were searched.
	Searched int `json:"searched"`
	// Indexes is how many of the other projects' indexes were searched:
	// each alone, only those whose results could still count.
	Indexes int `json:"indexes_searched"`
	// RuledOut is how many could not score above the results found (or
	// hold none of the query's words), so their indexes were not opened.
	RuledOut int `json:"ruled_out"`
	// NotReached names the projects the budget ran out before; their
	// results may be missing.
	NotReached []string `json:"not_reached,omitempty"`
	// Skipped names the registered projects left out, and why.
	Skipped []Skipped `json:"skipped,omitempty"`
	// OptedOut counts the registered projects that share no memory.
	OptedOut int `json:"opted_out,omitempty"`
}

// corpusStats are word statistics over many indexes: chunks holding each
// stem, and all chunks.
type corpusStats struct {
	df map[string]float64
	n  float64
}

func (c *corpusStats) add(df map[string]float64, n float64) {
	for s, d := range df {
		c.df[s] += d
	}
	c.n += n
}

// queryWords are the stems of every word of the query, stop words
// included: whatever subset a search ranks by (dates taken out, or the
// stop words when nothing else is asked) has its statistics.
func queryWords(query string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range textan.Words(query) {
		if s := textan.Stem(w); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// otherPool is the candidate pool of another project's indexes: enough
// for its best results to reach the first limit, fewer than a search of
// one project takes to rank its own.
func otherPool(limit, configured int) int {
	p := limit
	if configured > 0 {
		p = min(p, configured)
	}
	return p
}

// deskIndex is one index of another project during a search.
type deskIndex struct {
	proj  int // in Desk.Others
	root  Root
	path  string
	entry *catEntry // its catalogued state, when current
	ix    *Index    // open, when it had to be opened
	fresh bool      // caught up during this search
	snap  bool      // catalogued during this search: its key is written once closed
	bound float64   // the most a result of it can score

	// its search: results, notes, or why it failed (late: the budget
	// ran out)
	searched bool
	results  []Result
	notes    []string
	err      error
	late     bool
}

// deskProject is another project during a search.
type deskProject struct {
	idxs     []*deskIndex
	failed   string // why it could not be searched
	late     bool   // the budget ran out before it
	searched bool
	notes    []string
}

func (d *Desk) budget() time.Duration {
	if d.Budget > 0 {
		return d.Budget
	}
	return DefaultDeskBudget
}

func (d *Desk) workers() int {
	if d.Workers > 0 {
		return d.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// parallel runs fn(i) for i in 0..n-1, at most w at a time.
func parallel(n, w int, fn func(i int)) {
	// errgroup's limit is the pool: at most w calls at a time, and Go
	// waits for a free slot, so n may be large.
	var g errgroup.Group
	g.SetLimit(max(1, w))
	for i := 0; i < n; i++ {
		g.Go(func() error { fn(i); return nil })
	}
	g.Wait()
}

// queryDesk is [Memory.Query] across the desk: see the top of this file.
func (m *Memory) queryDesk(ctx context.Context, query string, limit int, now time.Time, within *DayRange) (*Response, error) {
	d := m.Desk
	if limit <= 0 {
		limit = 10
	}
	dctx, cancel := context.WithTimeout(ctx, d.budget())
	defer cancel()
	own, notes, err := m.open(ctx, now)
	defer closeIndexes(own)
	if err != nil {
		return nil, err
	}
	if m.Options.Embedder != nil {
		notes = append(notes, "a search across projects ranks by words alone (BM25), so that scores compare across projects")
	}
	words := queryWords(query)
	var cat *catalog
	if !d.Exhaustive {
		if cat, err = openCatalog(m.IndexDir); err != nil {
			notes = append(notes, err.Error()+"; every project is opened")
			cat = nil
		} else {
			defer cat.close()
		}
	}
	projs := make([]*deskProject, len(d.Others))
	var all []*deskIndex
	for i, p := range d.Others {
		projs[i] = &deskProject{}
		for _, r := range p.Roots {
			if fi, err := os.Stat(r.Dir); err != nil || !fi.IsDir() {
				continue
			}
			di := &deskIndex{proj: i, root: r, path: IndexPath(m.IndexDir, r)}
			projs[i].idxs = append(projs[i].idxs, di)
			all = append(all, di)
		}
	}
	defer func() {
		for _, di := range all {
			if di.ix == nil {
				continue
			}
			di.ix.Close()
			if di.snap && di.entry != nil {
				// the catalogued state is the file as this search left it
				_ = cat.setKey(context.Background(), di.entry.id, fileKey(di.path))
			}
		}
	}()

	// Which indexes the catalog knows as they are (then they are not
	// caught up again: their folders and recent files are as their last
	// update saw them); the others are opened and caught up now, and
	// catalogued.
	var entries map[string]*catEntry
	if cat != nil {
		if entries, err = cat.entries(dctx); err != nil {
			notes = append(notes, err.Error())
		}
	}
	var mu sync.Mutex
	parallel(len(all), d.workers(), func(i int) {
		di := all[i]
		p := projs[di.proj]
		if e := entries[di.path]; e != nil && e.key != "" && e.key == fileKey(di.path) && e.fresh.holds(di.root.Dir) {
			di.entry, di.fresh = e, true
			return
		}
		if dctx.Err() != nil {
			mu.Lock()
			p.late = true
			mu.Unlock()
			return
		}
		note, err := di.catchUp(dctx, m.IndexDir, d.Others[di.proj], now)
		if err == nil && cat != nil && dctx.Err() == nil {
			var serr error
			di.entry, serr = cat.snapshot(dctx, di.ix)
			di.snap = serr == nil
			if serr != nil && dctx.Err() == nil {
				note = serr.Error()
			}
		}
		mu.Lock()
		defer mu.Unlock()
		switch {
		case err != nil && dctx.Err() != nil:
			p.late = true
		case err != nil:
			p.failed = err.Error()
		case note != "":
			p.notes = append(p.notes, note)
		}
	})

	// The desk's statistics: this project's indexes read live, the others
	// from the catalog (or live, when it could not be read).
	stats := &corpusStats{df: map[string]float64{}}
	for _, ix := range own {
		df, n, err := ix.docFreqs(words)
		if err != nil {
			return nil, err
		}
		stats.add(df, n)
	}
	ids := map[int64]bool{}
	for _, di := range all {
		if di.entry != nil {
			ids[di.entry.id] = true
		}
	}
	var catWords map[int64]map[string]wordStat
	var catNamed map[int64]bool
	catOK := false
	if cat != nil {
		if catWords, err = cat.words(dctx, ids, words); err != nil {
			notes = append(notes, err.Error())
		} else if catNamed, err = cat.named(dctx, ids, words); err != nil {
			notes = append(notes, err.Error())
		} else {
			catOK = true
		}
	}
	for _, di := range all {
		p := projs[di.proj]
		switch {
		case p.failed != "" || p.late:
		case di.entry != nil && catOK:
			df := map[string]float64{}
			for s, w := range catWords[di.entry.id] {
				df[s] = w.df
			}
			stats.add(df, di.entry.chunks)
		case di.ix != nil:
			df, n, err := di.ix.docFreqs(words)
			if err != nil {
				p.failed = err.Error()
				continue
			}
			stats.add(df, n)
		default:
			p.late = true // known to the catalog only, which could not be read
		}
	}

	o := m.Options
	o.Limit, o.Now, o.Within, o.Embedder, o.stats = limit, now, within, nil, stats
	b := newBounds(query, words, stats, o)
	for _, di := range all {
		if di.entry != nil && catOK {
			di.bound = b.of(catWords[di.entry.id], catNamed[di.entry.id])
		} else {
			di.bound = math.Inf(1)
		}
	}

	// This project, then the others' indexes best bound first: each
	// index is searched alone, so that a project whose daily notes may
	// reach the results does not open its wiki too when that cannot.
	oo := o
	oo.Base = m.Base
	resp, err := Search(ctx, own, query, oo)
	if err != nil {
		return nil, err
	}
	notes = append(notes, resp.Notes...)
	lists := []rankedList{{rank: 0, results: m.labelOwn(resp.Results)}}
	merge := func() []Result {
		kept := lists[:0:0]
		for _, l := range lists {
			if l.rank == 0 || projs[l.rank-1].failed == "" {
				kept = append(kept, l)
			}
		}
		return mergeLists(kept, limit)
	}
	var order []*deskIndex
	for _, di := range all {
		if p := projs[di.proj]; p.failed == "" && !p.late && (di.bound > 0 || d.Exhaustive) {
			order = append(order, di)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return order[a].bound > order[b].bound })
	merged := merge()
	searchedIdx := 0
	for next := 0; next < len(order); {
		cut := 0.0
		if len(merged) >= limit {
			cut = merged[limit-1].Score
		}
		var batch []*deskIndex
		for next < len(order) && len(batch) < d.workers() {
			di := order[next]
			if !d.Exhaustive && di.bound+1e-4 < cut {
				next = len(order) // sorted: none after it can reach the results either
				break
			}
			if projs[di.proj].failed == "" {
				batch = append(batch, di)
			}
			next++
		}
		if len(batch) == 0 {
			continue
		}
		if dctx.Err() != nil {
			for _, di := range append(batch, order[next:]...) {
				projs[di.proj].late = true
			}
			break
		}
		parallel(len(batch), d.workers(), func(k int) {
			di := batch[k]
			m.searchIndex(dctx, di, d.Others[di.proj], query, o, now)
		})
		for _, di := range batch {
			p := projs[di.proj]
			switch {
			case di.late:
				p.late = true
			case di.err != nil:
				p.failed = di.err.Error()
			case di.searched:
				searchedIdx++
				p.searched = true
				p.notes = append(p.notes, di.notes...)
				lists = append(lists, rankedList{rank: 1 + di.proj, results: di.results})
			}
		}
		merged = merge()
	}

	rep := &AcrossReport{Self: d.ID, Projects: 1 + len(d.Others), Searched: 1, Indexes: searchedIdx, Skipped: d.Skipped, OptedOut: d.OptedOut}
	for i, p := range projs {
		name := d.Others[i].ID
		switch {
		case p.failed != "":
			rep.Skipped = append(rep.Skipped, Skipped{Project: name, Reason: p.failed})
		case p.late:
			// what its searched indexes found is kept
			rep.NotReached = append(rep.NotReached, name)
		case p.searched:
			rep.Searched++
			for _, n := range p.notes {
				notes = append(notes, name+": "+n)
			}
		default:
			rep.RuledOut++
		}
	}
	if len(rep.NotReached) > 0 {
		notes = append(notes, fmt.Sprintf("the search across projects ran out of its %s before %s; their results may be missing",
			d.budget(), strings.Join(rep.NotReached, ", ")))
	}
	for _, s := range rep.Skipped {
		notes = append(notes, fmt.Sprintf("project %s was not searched: %s", s.Project, s.Reason))
	}
	return &Response{Results: merged, Mode: ModeBM25, Notes: notes, Across: rep}, nil
}

// catchUp opens the index and catches it up, as a search of that project
// would; a note says when it is behind.
func (di *deskIndex) catchUp(ctx context.Context, dir string, p Project, now time.Time) (string, error) {
	if di.ix == nil {
		ix, err := Open(dir, di.root, p.Params)
		if err != nil {
			return "", err
		}
		di.ix = ix
	}
	if di.fresh {
		return "", nil
	}
	st, err := di.ix.Refresh(ctx, now)
	if err != nil {
		return "", err
	}
	di.fresh = true
	if !st.Complete {
		return fmt.Sprintf("index of %s is behind (%d files not yet read); searched what is indexed", DisplayPath(di.root.Dir, p.Root), st.Pending), nil
	}
	return "", nil
}

// searchIndex searches one index of another project: opened and caught
// up (when the catalog answered for it, only opened), then ranked with
// the desk's statistics and a bounded pool.
func (m *Memory) searchIndex(ctx context.Context, di *deskIndex, p Project, query string, o Options, now time.Time) {
	fail := func(err error) {
		if ctx.Err() != nil {
			di.late = true
		} else {
			di.err = err
		}
	}
	note, err := di.catchUp(ctx, m.IndexDir, p, now)
	if err != nil {
		fail(err)
		return
	}
	if note != "" {
		di.notes = append(di.notes, note)
	}
	o.Base = p.Root
	o.CandidatePool = otherPool(o.Limit, o.CandidatePool)
	o.MMR = false
	mode := o.Citations
	o.Citations = CitationsAuto // relabelled first, cited after
	resp, err := Search(ctx, []*Index{di.ix}, query, o)
	if err != nil {
		fail(err)
		return
	}
	for _, r := range resp.Results {
		r.Project = p.ID
		r.Path = p.ID + ":" + r.Path
		r.Citation = p.ID + ":" + r.Citation
		r.citeAs(mode)
		di.results = append(di.results, r)
	}
	di.notes = append(di.notes, resp.Notes...)
	di.searched = true
}

// labelOwn labels this project's results with its id; a hit from the org
// vault (scope everything) belongs to no project and keeps its path.
func (m *Memory) labelOwn(rs []Result) []Result {
	out := make([]Result, 0, len(rs))
	for _, r := range rs {
		r.Project = m.Desk.ID
		if filepath.IsAbs(r.Path) {
			for _, root := range m.Roots {
				if _, in := within(root.Dir, r.Path); in && root.Kind == KindOrg {
					r.Project = ""
				}
			}
		}
		out = append(out, r)
	}
	return out
}

// rankedList is one project's results and its place on ties: this
// project 0, the others in the desk's order.
type rankedList struct {
	rank    int
	results []Result
}

// mergeLists ranks the projects' lists together and keeps the first
// limit: by score, then by the projects' places; each list keeps its own
// order among equals.
func mergeLists(lists []rankedList, limit int) []Result {
	type ranked struct {
		r         Result
		list, pos int
	}
	var all []ranked
	for _, rl := range lists {
		for pos, r := range rl.results {
			all = append(all, ranked{r: r, list: rl.rank, pos: pos})
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].r.Score != all[j].r.Score {
			return all[i].r.Score > all[j].r.Score
		}
		if all[i].list != all[j].list {
			return all[i].list < all[j].list
		}
		return all[i].pos < all[j].pos
	})
	out := make([]Result, 0, min(limit, len(all)))
	for _, a := range all[:min(limit, len(all))] {
		out = append(out, a.r)
	}
	return out
}

// bounds computes the most an index can score for a query, from its
// catalogued words and the desk's statistics, by the ranking's own
// formulas (searchStems): a passage's text score is the mean of its
// chunk's 1 − e^(−bm25/ΣIDF) and its own, each word adding at most its
// IDF times its saturated count in the chunk. Recency and the link
// penalty only lower a score; a page the query names multiplies its hits'
// by namedBoost; a query naming dates may multiply the score
// of those days' hits by the date boost, over the words left without the
// dates; a query of dates alone lists days and is not bounded.
type bounds struct {
	idf   map[string]float64
	sets  [][]string // the stem sets a search may rank by
	boost []float64  // and the factor each may reach
	open  bool       // no bound
}

func newBounds(query string, words []string, st *corpusStats, o Options) *bounds {
	b := &bounds{idf: map[string]float64{}}
	for _, w := range words {
		b.idf[w] = idfOf(st.df[w], st.n)
	}
	b.sets, b.boost = [][]string{textan.QueryTerms(query)}, []float64{1}
	if o.DateBoost >= 0 && !o.Now.IsZero() {
		if dq := ParseDates(query, o.Now); len(dq.Ranges) > 0 {
			boost := o.DateBoost
			if boost == 0 {
				boost = DefaultDateBoost
			}
			content := contentStems(dq.Rest(query))
			if len(content) == 0 {
				b.open = true
			}
			b.sets, b.boost = append(b.sets, content), append(b.boost, math.Max(1, boost))
		}
	}
	return b
}

// of is the bound of an index whose catalogued words are ws (named: it
// holds a page the query names): the best over its chunks of what their
// words can add up to. A chunk in a word's list scores what the list
// says for it; any other chunk at most the word's rest. So the bound is
// the best of a chunk listed for none of the words (every word at its
// rest) and of each listed chunk (its listed words at their impacts, the
// others at their rests).
func (b *bounds) of(ws map[string]wordStat, named bool) float64 {
	if b.open {
		return math.Inf(1)
	}
	best := 0.0
	for k, set := range b.sets {
		var total float64
		var rest impact
		listed := map[int64]*impact{}
		for _, s := range set {
			idf := b.idf[s]
			total += idf
			w, ok := ws[s]
			if !ok {
				continue
			}
			rest.chunk += idf * w.rest.chunk
			rest.passage += idf * w.rest.passage
			for _, p := range w.postings {
				l := listed[p.id]
				if l == nil {
					l = &impact{}
					listed[p.id] = l
				}
				// what this word adds to the chunk over its rest
				l.chunk += idf * (p.chunk - w.rest.chunk)
				l.passage += idf * (p.passage - w.rest.passage)
			}
		}
		if total <= 0 {
			continue
		}
		factor := b.boost[k]
		if named {
			factor = math.Max(factor, namedBoost)
		}
		score := func(c impact) float64 {
			return factor * ((1-passageWeight)*(1-math.Exp(-c.chunk/total)) + passageWeight*(1-math.Exp(-c.passage/total)))
		}
		best = math.Max(best, score(rest))
		for _, l := range listed {
			best = math.Max(best, score(impact{rest.chunk + l.chunk, rest.passage + l.passage}))
		}
	}
	return best
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
