package search

import (
	"math"
	"slices"
	"sort"
	"time"

	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

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
// included: what a page's name is matched against. The statistics are
// read for boundStems, the subsets a search ranks by.
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
// penalty and the proximity factor only lower a score; a page the query names multiplies its hits'
// by namedBoost; a query naming dates may multiply the score
// of those days' hits by the date boost, over the words left without the
// dates; a query of dates alone lists days and is not bounded.
type bounds struct {
	idf   map[string]float64
	sets  [][]string // the stem sets a search may rank by
	boost []float64  // and the factor each may reach
	open  bool       // no bound
	// match is the words of the first set that pick a search's
	// candidates (see weightsFrom): a chunk holding none is none
	match []string
	// near: the search applies the proximity factor
	near bool
}

// boundStems are the stems a search of query may rank by, and so weigh
// and bound: its stem sets' (see newBounds and Search), whatever the
// date boost.
func boundStems(query string, now time.Time) []string {
	out := textan.QueryTerms(query)
	if !now.IsZero() {
		if dq := ParseDates(query, now); len(dq.Ranges) > 0 {
			for _, s := range contentStems(dq.Rest(query)) {
				if !slices.Contains(out, s) {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

func newBounds(query string, words []string, st *corpusStats, o Options) *bounds {
	b := &bounds{idf: map[string]float64{}, near: !o.NoProximity}
	for _, w := range words {
		b.idf[w] = idfOf(st.df[w], st.n)
	}
	b.sets, b.boost = [][]string{textan.QueryTerms(query)}, []float64{1}
	_, b.match = weightsFrom(b.sets[0], st.df, st.n)
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
// words can add up to (see setBounds); with the bound of each listed
// chunk when the query has one stem set (see plan). The index's bound
// also knows the proximity factor where a chunk can hold only one of
// several query words; the listed chunks' bounds leave it out, so that
// the catalog picks another index's candidates as before (plan).
func (b *bounds) of(ws map[string]wordStat, named bool) (float64, map[int64]float64) {
	if b.open {
		return math.Inf(1), nil
	}
	best := 0.0
	var first map[int64]float64
	for k := range b.sets {
		top, listed := b.setBounds(k, ws, named, nil)
		if k == 0 && len(b.sets) == 1 {
			first = listed
		}
		best = math.Max(best, top)
	}
	return best, first
}

// quick bounds an index as [bounds.of] does, with each word at its best
// in one chunk: never below of's bound, and cheap (no list is read), so
// that a search works out of's only for the indexes it reaches, best
// quick bound first.
func (b *bounds) quick(ws map[string]wordStat, named bool) float64 {
	if b.open {
		return math.Inf(1)
	}
	best := 0.0
	for k, set := range b.sets {
		var total float64
		var c impact
		distinct := map[string]bool{}
		held := 0
		for _, s := range set {
			if distinct[s] {
				continue
			}
			distinct[s] = true
			idf := b.idf[s]
			total += idf
			if w, ok := ws[s]; ok {
				c.chunk += idf * w.chunk
				c.passage += idf * w.passage
				held++
			}
		}
		if total <= 0 || held == 0 {
			continue
		}
		factor := b.boost[k]
		if named {
			factor = math.Max(factor, namedBoost)
		}
		prox := 1.0
		if b.near && len(distinct) >= 2 && held == 1 {
			prox = proximityFloor // no chunk holds two of its words
		}
		best = math.Max(best, factor*((1-passageWeight)*prox*(1-math.Exp(-c.chunk/total))+passageWeight*(1-math.Exp(-c.passage/total))))
	}
	// a list's impacts are stored rounded up to float32, a word's best
	// is not: a hair more keeps this above of's
	return best * (1 + 1e-6)
}

// setBounds bounds, for the k-th stem set, each chunk of an index whose
// catalogued words are ws. A chunk in a word's list scores what the list
// says for it; any other chunk at most the word's rest. So the rest
// bounds every chunk listed for none of the words (each word at its
// rest), and listed each listed chunk (its listed words at their impacts,
// the others at their rests). top is the most any chunk can score with
// the proximity factor counted (see proximity): of a chunk's words,
// those listed for it stand on the lines their lists say, so one that
// shares no line with another word of the chunk is not close to any;
// a word with a rest may stand in it anywhere, or not at all. The factor
// lowers the chunk part only; the listed bounds leave it out. factors,
// when not nil, is given each listed chunk's most factor (tests).
func (b *bounds) setBounds(k int, ws map[string]wordStat, named bool, factors map[int64]float64) (top float64, listed map[int64]float64) {
	var total float64
	var restImp impact
	type held struct {
		idf   float64
		lines uint64
	}
	type chunkBound struct {
		impact
		words []held // its words listed for it that no unlisted chunk holds
	}
	imps := map[int64]*chunkBound{}
	distinct := map[string]bool{}
	var restIDF float64 // the set's words a chunk may hold unlisted
	restWords := 0
	for _, s := range b.sets[k] {
		if distinct[s] {
			continue
		}
		distinct[s] = true
		idf := b.idf[s]
		total += idf
		w, ok := ws[s]
		if !ok {
			continue
		}
		unlisted := w.rest.chunk > 0 || w.rest.passage > 0
		if unlisted {
			restIDF += idf
			restWords++
		}
		restImp.chunk += idf * w.rest.chunk
		restImp.passage += idf * w.rest.passage
		for _, p := range w.postings {
			l := imps[p.id]
			if l == nil {
				l = &chunkBound{}
				imps[p.id] = l
			}
			// what this word adds to the chunk over its rest
			l.chunk += idf * (p.chunk - w.rest.chunk)
			l.passage += idf * (p.passage - w.rest.passage)
			if !unlisted {
				l.words = append(l.words, held{idf, p.lines})
			}
		}
	}
	listed = make(map[int64]float64, len(imps))
	if total <= 0 {
		return 0, listed
	}
	factor := b.boost[k]
	if named {
		factor = math.Max(factor, namedBoost)
	}
	near := b.near && len(distinct) >= 2
	score := func(c impact, prox float64) float64 {
		return factor * ((1-passageWeight)*prox*(1-math.Exp(-c.chunk/total)) + passageWeight*(1-math.Exp(-c.passage/total)))
	}
	// the most the factor can be for a chunk holding words (and perhaps
	// the words with a rest): the close share is highest with every
	// word that may be there, each close where it may be
	prox := func(words []held) float64 {
		if !near {
			return 1
		}
		if len(words)+restWords <= 1 {
			return proximityFloor // one word is close to none
		}
		all, got := restIDF, restIDF
		for i, w := range words {
			all += w.idf
			close := restWords > 0
			for j := 0; j < len(words) && !close; j++ {
				close = j != i && w.lines&words[j].lines != 0
			}
			if close {
				got += w.idf
			}
		}
		return proximityFloor + (1-proximityFloor)*got/all
	}
	top = score(restImp, prox(nil))
	for id, l := range imps {
		c := impact{restImp.chunk + l.chunk, restImp.passage + l.passage}
		f := prox(l.words)
		listed[id] = score(c, 1)
		top = math.Max(top, score(c, f))
		if factors != nil {
			factors[id] = f
		}
	}
	return top, listed
}
