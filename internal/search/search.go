// Package search is cerebro's memory search: one incremental SQLite FTS5
// index for the desk (every memory root of every project, each chunk
// labelled with its root) over Markdown chunks, BM25 ranking over Snowball
// stems (Russian and English), temporal decay, MMR re-ranking, an
// optional hybrid merge with embedding vectors, and date-aware ranking
// (a query naming days favours the notes of those days, see [ParseDates]).
//
// Use: list the roots with [Roots], [Open] an [Index] for each (a view of
// the desk index in the state dir's index folder), [Index.Update] it (incremental, bounded by the
// context's deadline), then [Search] them together. [Resolve] checks a
// path someone asks to read against the roots; [AutoRecall] is the cheap
// form for the UserPromptSubmit hook.
package search

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/text/cite"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// Options tune one search.
type Options struct {
	Limit         int
	CandidatePool int     // BM25 and vector candidates per index before ranking
	HalfLifeDays  float64 // 0: no temporal decay
	// RecencyFloor is the share of its score the oldest hit keeps (see
	// [DefaultRecencyFloor]); 0 means the default, negative none.
	RecencyFloor float64
	MMR          bool
	MMRLambda    float64
	VectorWeight float64
	TextWeight   float64
	Now          time.Time // the day relative dates count from and decay's reference; zero: dates are not read
	Embedder     Embedder  // nil: BM25 only
	// DateBoost multiplies the score of a hit whose file's name dates it
	// inside a day range the query names (see [ParseDates]); 0 means
	// [DefaultDateBoost], a negative value leaves dates in queries unread.
	DateBoost float64
	// Base makes result paths relative when they lie under it (the
	// project root); others stay absolute.
	Base string
	// SnippetChars caps a result's snippet; 0 means [SnippetChars].
	SnippetChars int
	// Within, when set, keeps the search to the files dated in it (a zero
	// From or To leaves that end open). A file's date is the one its
	// name gives (a roll-up's: its period's last day), else for
	// short-term memory its modification time; undated pages (CORE, the
	// wiki) have none and are left out.
	Within *DayRange
	// Citations is auto (the default, also for ""), on or off: see
	// [CitationsAuto].
	Citations string
	// MinCover, when above 0, keeps only the passages holding at least
	// this share of the query's informative weight (auto-recall's gate,
	// see coverage): what a passage must hold of the query to be about it,
	// whatever its rank.
	MinCover float64
	// gated keeps only the passages holding at least minCover of the
	// query's informative weight, and some of it: auto-recall's gate
	// (see coverage), applied before MMR picks among them.
	gated    bool
	minCover float64
	// passagePool, when above 0, keeps only the chunks of best text score
	// among the candidates for their passages (the costly part): a search
	// across the desk takes more candidates than a project's, since FTS5's
	// own rank (no proximity, its own IDF) orders them less well than
	// cerebro's, and picks passages in the best of them.
	passagePool int
	// noProximity scores chunks without the proximity factor: the tests'
	// way to show what the factor does and costs.
	noProximity bool
}

// snippetChars is the cap on a result's snippet these options ask for.
func (o Options) snippetChars() int {
	if o.SnippetChars > 0 {
		return o.SnippetChars
	}
	return SnippetChars
}

// Result is one hit as memhook prints it.
type Result struct {
	Path      string  `json:"path"`
	StartLine int     `json:"start_line"`
	EndLine   int     `json:"end_line"`
	Score     float64 `json:"score"`
	Snippet   string  `json:"snippet"`
	Citation  string  `json:"citation,omitempty"` // empty with search.citations = off
	// Project is the registry id of the project the hit comes from, in a
	// search across projects (scope projects, everything).
	Project string `json:"project,omitempty"`
	// cover is the share of the query's informative weight the snippet
	// holds, which auto-recall's threshold applies to (see coverage).
	cover float64
}

// Coverage is the share of the query's informative weight the result's
// passage holds (see coverage): what [Options.MinCover] compares.
func (r Result) Coverage() float64 { return r.cover }

// Response is a search's answer: the results, "bm25" or "hybrid", and
// notes on anything that made it less than complete.
type Response struct {
	Results []Result `json:"results"`
	Mode    string   `json:"mode"`
	Notes   []string `json:"notes,omitempty"`
	// Across says what a search across projects covered.
	Across *AcrossReport `json:"across,omitempty"`
}

// Modes of a [Response].
const (
	ModeBM25   = "bm25"
	ModeHybrid = "hybrid"
)

type hit struct {
	ix        *Index
	id        int64
	rel       string
	start     int
	end       int
	text      string
	stems     string
	fields    map[string]float64 // the query stems' weighted counts in the title and headings (see titleWeight)
	links     float64            // the chunk's share of link text
	dated     int64
	before    []string // the file's lines just before and after the chunk, for snippet context
	after     []string
	textScore float64
	vecScore  float64
	score     float64
	snip      snip
	cover     float64 // the auto-recall gate: see coverage
}

// passageWeight is the passage's share of a hit's text score, the rest
// being its chunk's: the chunk says the topic is there, the passage that
// what is shown holds it. A chunk is larger than a snippet, so ranking by
// the chunk alone favours chunks whose matches lie too far apart for one
// snippet; by the passage alone, a stray match in an unrelated chunk.
const passageWeight = 0.5

// passagesPerChunk is how many separate snippets one chunk may yield as
// results: a chunk is two snippets and more long, and its second or
// third passage can beat the best passage of another chunk. Each is
// scored on its own, so a weak one ranks low.
const passagesPerChunk = 3

// Search runs query over the indexes and ranks the hits together.
//
// A query naming dates or day ranges ("yesterday", "13 October", «на
// прошлой неделе») is searched without those words, and hits from files
// dated in the ranges score DateBoost times more, without decay: they
// are as old as the time asked about. When no hit falls in the ranges
// the query is searched as written; when nothing but the dates (and stop
// words) is asked, the files of those days are listed.
func Search(ctx context.Context, idxs []*Index, query string, o Options) (*Response, error) {
	if o.Limit <= 0 {
		o.Limit = 10
	}
	if o.CandidatePool < o.Limit {
		o.CandidatePool = max(o.Limit, 50)
	}
	if o.MinCover > 0 {
		o.gated, o.minCover = true, o.MinCover
	}
	if resp, ok, err := searchDates(ctx, idxs, query, o); err != nil || ok {
		return resp, err
	}
	resp, _, err := searchStems(ctx, idxs, query, textan.QueryTerms(query), o, nil)
	return resp, err
}

// searchStems ranks the hits for stems (query is what an embedder reads);
// with dates, it also reports whether any hit lay in their ranges.
func searchStems(ctx context.Context, idxs []*Index, query string, stems []string, o Options, dates *dateFilter) (*Response, bool, error) {
	resp := &Response{Results: []Result{}, Mode: ModeBM25}
	if len(stems) == 0 {
		return resp, false, nil
	}
	var qvec []float32
	if o.Embedder != nil {
		v, err := o.Embedder.Embed(ctx, []string{query})
		if err != nil {
			resp.Notes = append(resp.Notes, fmt.Sprintf("embedding provider failed, searched by text only: %v", err))
		} else {
			qvec = normalize(v[0])
		}
	}
	var all []*hit
	for _, g := range sameDesk(idxs) {
		// the desk's word statistics, the same for every root in it: the
		// auto-recall gate and BM25 weigh words by their counts in all
		// the memory, and one passage scores alike whichever roots a
		// search asks with it
		df, n, err := g[0].docFreqs(stems)
		if err != nil {
			return nil, false, err
		}
		gate := gateWeights(stems, df, n)
		weights, match := weightsFrom(stems, df, n)
		byID := map[int64]*hit{}
		if err := textCandidates(ctx, g, stems, match, weights, o.CandidatePool, byID, nil, o.Within, !o.noProximity); err != nil {
			return nil, false, err
		}
		for _, ix := range g {
			if only := dates.files(ix); only != nil {
				// the named days' best chunks are candidates even when their
				// words rank below the pool
				if err := textCandidates(ctx, []*Index{ix}, stems, match, weights, o.CandidatePool, byID, only, o.Within, !o.noProximity); err != nil {
					return nil, false, err
				}
			}
			if qvec != nil {
				n, err := ix.vectorCandidates(ctx, qvec, o.CandidatePool, byID)
				if err != nil {
					return nil, false, err
				}
				if n > 0 {
					resp.Mode = ModeHybrid
				}
			}
		}
		if o.passagePool > 0 && len(byID) > o.passagePool {
			keepBest(byID, o.passagePool)
		}
		if err := g[0].neighbours(ctx, byID, o.snippetChars()); err != nil {
			return nil, false, err
		}
		for _, h := range byID {
			if !o.Within.holds(h.dated) {
				continue // a vector candidate from outside the period
			}
			c := chunkText{text: h.text, stems: h.stems, before: h.before, after: h.after, fields: h.fields}
			for _, sn := range pickSnippets(c, weights, passagesPerChunk, o.snippetChars()) {
				p := *h
				p.snip = sn
				p.cover = coverage(stems, gate, sn.stems)
				all = append(all, &p)
			}
		}
	}
	if qvec != nil && resp.Mode == ModeBM25 {
		resp.Notes = append(resp.Notes, "no chunk has a vector yet, searched by text only")
	}
	vw, tw := o.VectorWeight, o.TextWeight
	if vw+tw <= 0 {
		vw, tw = 0.7, 0.3
	}
	vw, tw = vw/(vw+tw), tw/(vw+tw)
	boost := o.DateBoost
	if boost == 0 {
		boost = DefaultDateBoost
	}
	if o.gated {
		kept := all[:0]
		for _, h := range all {
			if h.cover > 0 && h.cover >= o.minCover {
				kept = append(kept, h)
			}
		}
		all = kept
	}
	found := false
	refs, floor := newestOf(all, o.Now), recencyFloor(o.RecencyFloor)
	named := map[string]bool{}
	isNamed := func(h *hit) bool {
		key := h.ix.Root.Dir + "\x00" + h.rel
		v, ok := named[key]
		if !ok {
			v = !isLog(h.rel) && namesFile(stems, h.rel)
			named[key] = v
		}
		return v
	}
	for _, h := range all {
		s := (1-passageWeight)*h.textScore + passageWeight*h.snip.score
		if resp.Mode == ModeHybrid {
			s = vw*math.Max(0, h.vecScore) + tw*s
		}
		if dates != nil && dates.covers(h) {
			h.score = s * boost
			found = true
			continue
		}
		if isNamed(h) {
			s *= namedBoost
		}
		h.score = s * recency(h.dated, refs[h.ix.project], o.HalfLifeDays, floor)
	}
	sortHits(all)
	resp.Results = append(resp.Results, pickResults(all, stems, o)...)
	return resp, found, nil
}

// keepBest keeps the n candidates of best text score (ties by id, so
// that one query always keeps the same ones).
func keepBest(byID map[int64]*hit, n int) {
	all := make([]*hit, 0, len(byID))
	for _, h := range byID {
		all = append(all, h)
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].textScore != all[j].textScore {
			return all[i].textScore > all[j].textScore
		}
		return all[i].id < all[j].id
	})
	for _, h := range all[n:] {
		delete(byID, h.id)
	}
}

// pickResults takes the first results of sorted passages as every search
// does: one passage of a place, MMR when asked, the page cap, citations.
func pickResults(all []*hit, stems []string, o Options) []Result {
	all = unrepeated(all)
	var picked []*hit
	if o.MMR {
		picked = mmr(all, o.Limit+spare, o.MMRLambda)
	} else {
		picked = all[:min(o.Limit+spare, len(all))]
	}
	picked = spread(picked, stems, o.Limit)
	out := make([]Result, 0, len(picked))
	for _, h := range picked {
		r := h.result(o.Base)
		if h.ix.project != "" {
			// another project's: labelled in its path and citation
			r = h.result(h.ix.base)
			r.Project = h.ix.project
			r.Path = h.ix.project + ":" + r.Path
			r.Citation = h.ix.project + ":" + r.Citation
		}
		r.citeAs(o.Citations)
		out = append(out, r)
	}
	return out
}

func (h *hit) result(base string) Result {
	p := DisplayPath(filepath.Join(h.ix.Root.Dir, filepath.FromSlash(h.rel)), base)
	start := h.start + h.snip.off
	end := start + h.snip.n - 1
	return Result{
		Path: p, StartLine: start, EndLine: end,
		Score:    math.Round(h.score*10000) / 10000,
		Snippet:  h.snip.text,
		Citation: cite.Lines(p, start, end),
		cover:    h.cover,
	}
}

// DisplayPath is abs relative to base when it lies under base, else abs
// itself: how results and `memhook get` name files.
func DisplayPath(abs, base string) string {
	if base != "" {
		if rel, err := filepath.Rel(base, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return abs
}

// sortHits orders passages best first, ties by file and then by their
// own lines, so that one query always ranks alike: a search of one
// project and a search across projects share it.
func sortHits(all []*hit) {
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].score != all[j].score {
			return all[i].score > all[j].score
		}
		if all[i].rel != all[j].rel {
			return all[i].rel < all[j].rel
		}
		// passages of one chunk share its start: order by their own lines
		if si, sj := all[i].start+all[i].snip.off, all[j].start+all[j].snip.off; si != sj {
			return si < sj
		}
		return all[i].snip.n < all[j].snip.n
	})
}

// scoreText sets h's field counts and text score as every ranking of chunks
// computes them — a search of one project (textCandidates) and of the
// candidates of a search across projects (queryDesk) alike — and returns
// its counts of the query stems, the title and headings weighted in.
// length is the chunk's tokens over the index's mean, total the query's
// IDF sum; near applies the proximity factor.
func (h *hit) scoreText(stems []string, idf map[string]float64, title, heads string, length, total float64, near bool) map[string]float64 {
	h.fields = fieldCounts(idf, title, heads)
	occ, line := occurrences(h.stems, idf, 0, nil)
	tf := map[string]float64{}
	for _, o := range occ {
		tf[o.stem]++
	}
	for w, n := range h.fields {
		tf[w] += n
	}
	var score float64
	norm := bm25K1 * (1 - bm25B + bm25B*length)
	for _, w := range stems { // in query order: the same sum every time
		if f := tf[w]; f > 0 {
			score += idf[w] * f * (bm25K1 + 1) / (f + norm)
		}
	}
	if total > 0 {
		h.textScore = (1 - math.Exp(-score/total)) * (1 - linkPenalty*h.links)
		if near {
			// the title and headings count as lines of their own
			occ, line = occurrences(title, idf, line, occ)
			occ, _ = occurrences(heads, idf, line, occ)
			h.textScore *= proximity(occ, idf)
		}
	}
	return tf
}

// fieldCounts is the query stems' occurrences in a chunk's title and
// headings, each field counting once per stem, weighted: what they add
// to the body's counts.
func fieldCounts(idf map[string]float64, title, heads string) map[string]float64 {
	var out map[string]float64
	for _, f := range []struct {
		text string
		w    float64
	}{{title, titleWeight}, {heads, headingWeight}} {
		seen := map[string]bool{}
		for _, s := range strings.Fields(f.text) {
			if _, ok := idf[s]; ok && !seen[s] {
				seen[s] = true
				if out == nil {
					out = map[string]float64{}
				}
				out[s] += f.w
			}
		}
	}
	return out
}
