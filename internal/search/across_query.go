package search

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
)

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
	exact bool      // bound is of's, not quick's
	// its candidates from the catalog's lists, when they tell them (from
	// its words' lists and what bounds each listed chunk)
	plan   *listedPlan
	words  map[string]wordStat
	listed map[int64]float64
	named  bool

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

// queryDesk is [Memory.Query] across the desk: see the top of across.go.
func (m *Memory) queryDesk(ctx context.Context, query string, limit int, now time.Time, within *DayRange) (*Response, error) {
	d := m.Desk
	if limit <= 0 {
		limit = 10
	}
	dctx, cancel := context.WithTimeout(ctx, d.budget())
	defer cancel()
	words := queryWords(query)
	// the stems a ranking weighs and a bound adds up: the others (stop
	// words, unless nothing else is asked; the words naming dates) are
	// not read from the catalog, whose longest lists are theirs
	scored := boundStems(query, now)
	// This project's indexes are opened and caught up, and their
	// statistics read, while the catalog answers for the others: the
	// two take about as long, and a machine has two cores at least.
	var (
		own      []*Index
		ownNotes []string
		ownErr   error
		ownStats = &corpusStats{df: map[string]float64{}}
		opened   = make(chan struct{})
	)
	go func() {
		defer close(opened)
		if own, ownNotes, ownErr = m.open(ctx, now); ownErr != nil {
			return
		}
		for _, ix := range own {
			df, n, err := ix.docFreqs(scored)
			if err != nil {
				ownErr = err
				return
			}
			ownStats.add(df, n)
		}
	}()
	defer func() {
		<-opened
		closeIndexes(own)
	}()
	var notes []string
	cat, err := openCatalog(m.IndexDir)
	if err != nil {
		notes = append(notes, err.Error()+"; every project is opened")
		cat = nil
	} else {
		defer cat.close()
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
	// the query's words as the catalog knows them, read meanwhile for
	// every catalogued index; again after, if some were catalogued anew
	type catRead struct {
		words map[int64]map[string]wordStat
		named map[int64]bool
		err   error
	}
	readCat := func(ids map[int64]bool) catRead {
		var r catRead
		if r.words, r.err = cat.words(dctx, ids, scored); r.err == nil {
			r.named, r.err = cat.named(dctx, ids, words)
		}
		return r
	}
	prefetched := make(chan catRead, 1)
	if cat != nil && entries != nil {
		ids := map[int64]bool{}
		for _, e := range entries {
			ids[e.id] = true
		}
		go func() { prefetched <- readCat(ids) }()
	} else {
		close(prefetched)
	}
	var mu sync.Mutex
	var keys []string
	if entries != nil {
		paths := make([]string, len(all))
		for i, di := range all {
			paths[i] = di.path
		}
		keys = fileKeys(m.IndexDir, paths)
	}
	parallel(len(all), d.workers(), func(i int) {
		di := all[i]
		p := projs[di.proj]
		if e := entries[di.path]; e != nil && e.key != "" && e.key == keys[i] && e.fresh.holds(di.root.Dir) {
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
	<-opened
	if ownErr != nil {
		return nil, ownErr
	}
	notes = append(ownNotes, notes...)
	if m.Options.Embedder != nil {
		notes = append(notes, "a search across projects ranks by words alone (BM25), so that scores compare across projects")
	}
	stats := ownStats
	ids, anew := map[int64]bool{}, false
	for _, di := range all {
		if di.entry != nil {
			ids[di.entry.id] = true
			anew = anew || di.snap
		}
	}
	var catWords map[int64]map[string]wordStat
	var catNamed map[int64]bool
	catOK := false
	if cat != nil {
		r, ok := <-prefetched
		if !ok || anew {
			r = readCat(ids)
		}
		if catWords, catNamed = r.words, r.named; r.err != nil {
			notes = append(notes, r.err.Error())
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
			df, n, err := di.ix.docFreqs(scored)
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
	// each index's quick bound now, its exact one when the search reaches
	// it: most are never reached, and the exact one reads every list
	exact := func(di *deskIndex) {
		di.bound, di.listed = b.of(di.words, di.named)
		di.exact = true
	}
	for _, di := range all {
		if di.entry != nil && catOK {
			di.words, di.named = catWords[di.entry.id], catNamed[di.entry.id]
			if di.bound = b.quick(di.words, di.named); d.Exhaustive {
				exact(di)
			}
		} else {
			di.bound, di.exact = math.Inf(1), true
		}
	}

	// This project, and meanwhile the others' indexes best bound first:
	// each index is searched alone, so that a project whose daily notes
	// may reach the results does not open its wiki too when that cannot.
	// Until this project's results are in, the others are pruned by
	// theirs alone (a lower cut: more may be searched, none is missed).
	oo := o
	oo.Base = m.Base
	var (
		ownResp *Response
		ownDone = make(chan struct{})
	)
	go func() {
		defer close(ownDone)
		ownResp, ownErr = Search(ctx, own, query, oo)
	}()
	var lists []rankedList
	ownIn := false
	takeOwn := func(wait bool) error {
		if ownIn {
			return nil
		}
		if !wait {
			select {
			case <-ownDone:
			default:
				return nil
			}
		}
		<-ownDone
		ownIn = true
		if ownErr != nil {
			return ownErr
		}
		notes = append(notes, ownResp.Notes...)
		lists = append(lists, rankedList{rank: 0, results: m.labelOwn(ownResp.Results)})
		return nil
	}
	defer func() { <-ownDone }()
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
	if d.workers() <= 1 {
		// one at a time, nothing runs beside this project's search: its
		// results first give the others their cut from the start
		if err := takeOwn(true); err != nil {
			return nil, err
		}
	}
	merged := merge()
	searchedIdx, listedIdx := 0, 0
	for next := 0; next < len(order); {
		if !ownIn {
			if err := takeOwn(false); err != nil {
				return nil, err
			}
			merged = merge()
		}
		cut := 0.0
		if len(merged) >= limit {
			cut = merged[limit-1].Score
		}
		width := d.workers()
		if !ownIn {
			width = max(1, width-1) // a worker is searching this project
		}
		var batch []*deskIndex
		for next < len(order) && len(batch) < width {
			di := order[next]
			if !d.Exhaustive && di.bound+1e-4 < cut {
				next = len(order) // sorted: none after it can reach the results either
				break
			}
			if !di.exact {
				// its place among the others by its exact bound (at most
				// its quick one, so further on, or out when it is 0)
				exact(di)
				rest := order[next+1:]
				at := sort.Search(len(rest), func(k int) bool { return rest[k].bound < di.bound })
				copy(order[next:], rest[:at])
				if di.bound > 0 {
					order[next+at] = di
				} else {
					order = append(order[:next+at], order[next+at+1:]...)
				}
				continue
			}
			if projs[di.proj].failed == "" {
				if di.listed != nil {
					di.plan = b.plan(di.words, di.listed, di.named, otherPool(limit, o.CandidatePool), within)
				}
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
		if d.Exhaustive {
			cut = 0
		}
		parallel(len(batch), d.workers(), func(k int) {
			di := batch[k]
			m.searchIndex(dctx, di, d.Others[di.proj], query, o, now, cut)
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
				if di.plan != nil {
					listedIdx++
				}
				p.searched = true
				p.notes = append(p.notes, di.notes...)
				lists = append(lists, rankedList{rank: 1 + di.proj, results: di.results})
			}
		}
		merged = merge()
	}
	if err := takeOwn(true); err != nil {
		return nil, err
	}
	merged = merge()

	rep := &AcrossReport{Self: d.ID, Projects: 1 + len(d.Others), Searched: 1, Indexes: searchedIdx, FromLists: listedIdx, Skipped: d.Skipped, OptedOut: d.OptedOut}
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
// the desk's statistics and a bounded pool: the catalog's candidates
// when it has them (see across_listed.go), whose passages are picked
// only where they can still score cut, else FTS5's.
func (m *Memory) searchIndex(ctx context.Context, di *deskIndex, p Project, query string, o Options, now time.Time, cut float64) {
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
	var resp *Response
	if di.plan != nil {
		resp, err = di.ix.searchListed(ctx, query, di.plan, o, cut)
	} else {
		resp, err = Search(ctx, []*Index{di.ix}, query, o)
	}
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
