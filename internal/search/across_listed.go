package search

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// Another project's index is searched from the catalog's lists when they
// tell enough: its candidates are then the chunks the lists bound
// highest, read by id, instead of FTS5's best by its own BM25 — which
// scores every chunk holding a query word (with detail=column it reads
// each one's text again to count its words), the most of what a search
// of an index costs. A candidate's exact text score is cheap once it is
// read; its passage (the snippet and its score, the costly part) is
// picked only when what its chunk can score still reaches the results
// found so far: the search's two phases. The ranking is the one
// searchStems does (the same formulas, recency counted from the newest
// candidate, the same order, unrepeated and spread);
// TestListedSearchRanksAsSearch pins it.

// listedPlan is an index's candidates from the catalog: the pool chunks
// the lists bound highest, best first.
type listedPlan struct {
	ids []int64
}

// plan is the candidates of an index whose catalogued words are ws, or
// nil when the lists cannot tell them: a query naming dates (its days'
// files are candidates whatever their words), a period to keep to, or a
// chunk holding a word that picks candidates yet in none of those words'
// lists that could bound among the pool best (a word whose list the
// catalog could not keep bounds every chunk so). As in [Search], only a
// chunk holding one of the words that pick candidates is one.
// listed is what [bounds.of] gives each listed chunk.
func (b *bounds) plan(ws map[string]wordStat, listed map[int64]float64, named bool, pool int, within *DayRange) *listedPlan {
	if b.open || len(b.sets) != 1 || listed == nil || within != nil || pool <= 0 {
		return nil
	}
	type cb struct {
		id    int64
		bound float64
	}
	var all []cb
	seen := map[int64]bool{}
	unlisted := false // a chunk holding a picking word may be in none of their lists
	for _, s := range b.match {
		w, ok := ws[s]
		if !ok {
			continue
		}
		unlisted = unlisted || w.rest.chunk > 0 || w.rest.passage > 0
		for _, p := range w.postings {
			if !seen[p.id] {
				seen[p.id] = true
				all = append(all, cb{p.id, listed[p.id]})
			}
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].bound != all[j].bound {
			return all[i].bound > all[j].bound
		}
		return all[i].id < all[j].id
	})
	all = all[:min(pool, len(all))]
	if unlisted && (len(all) < pool || b.unlistedBound(ws, named) >= all[len(all)-1].bound) {
		return nil
	}
	p := &listedPlan{ids: make([]int64, len(all))}
	for i, c := range all {
		p.ids[i] = c.id
	}
	return p
}

// unlistedBound bounds a chunk listed for none of the words that pick
// candidates: those at their rests, the others at their best.
func (b *bounds) unlistedBound(ws map[string]wordStat, named bool) float64 {
	picks := map[string]bool{}
	for _, s := range b.match {
		picks[s] = true
	}
	var total float64
	var c impact
	for _, s := range b.sets[0] {
		idf := b.idf[s]
		total += idf
		w, ok := ws[s]
		switch {
		case !ok:
		case picks[s]:
			c.chunk += idf * w.rest.chunk
			c.passage += idf * w.rest.passage
		default:
			c.chunk += idf * w.chunk
			c.passage += idf * w.passage
		}
	}
	if total <= 0 {
		return 0
	}
	factor := 1.0
	if named {
		factor = namedBoost
	}
	return factor * ((1-passageWeight)*(1-math.Exp(-c.chunk/total)) + passageWeight*(1-math.Exp(-c.passage/total)))
}

// searchListed ranks the plan's chunks of ix for query as [Search] does
// with the desk's statistics (o.stats), MMR and embeddings left out as
// a search across projects leaves them; a chunk whose best passage
// cannot score cut (the results' last score so far) is not given one.
func (ix *Index) searchListed(ctx context.Context, query string, plan *listedPlan, o Options, cut float64) (*Response, error) {
	if o.Limit <= 0 {
		o.Limit = 10
	}
	resp := &Response{Results: []Result{}, Mode: ModeBM25}
	stems := textan.QueryTerms(query)
	if len(stems) == 0 || len(plan.ids) == 0 || o.stats == nil {
		return resp, nil
	}
	weights, _ := weightsFrom(stems, o.stats.df, o.stats.n)
	keys := make([]string, 0, len(weights))
	var total float64
	for k := range weights {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		total += weights[k]
	}
	hits, tfs, err := ix.chunksByID(ctx, plan.ids, stems, weights, !o.NoProximity)
	if err != nil {
		return nil, err
	}
	ref, floor := newest(hits, o.Now), recencyFloor(o.RecencyFloor)
	named := map[string]bool{}
	isNamed := func(h *hit) bool {
		v, ok := named[h.rel]
		if !ok {
			v = !isLog(h.rel) && namesFile(stems, h.rel)
			named[h.rel] = v
		}
		return v
	}
	// phase one: what each chunk's best passage could score, from its
	// chunk's counts (a passage holds some of its lines, under its title
	// and headings) and its recency; only those that reach cut get a
	// passage
	byID := map[int64]*hit{}
	for _, h := range hits {
		var up float64
		if total > 0 {
			up = 1 - math.Exp(-passageBM25(tfs[h.id], weights, keys)/total)
		}
		bound := (1-passageWeight)*h.textScore + passageWeight*up
		if isNamed(h) {
			bound *= namedBoost
		}
		// its recency is known already: the candidates are all read
		bound *= recency(h.dated, ref, o.HalfLifeDays, floor)
		if bound+1e-4 >= cut {
			byID[h.id] = h
		}
	}
	if err := ix.neighbours(ctx, byID, o.snippetChars()); err != nil {
		return nil, err
	}
	var all []*hit
	for _, h := range hits {
		if byID[h.id] == nil {
			continue
		}
		c := chunkText{text: h.text, stems: h.stems, before: h.before, after: h.after, fields: h.fields}
		for _, sn := range pickSnippets(c, weights, passagesPerChunk, o.snippetChars()) {
			p := *h
			p.snip = sn
			s := (1-passageWeight)*p.textScore + passageWeight*sn.score
			if isNamed(&p) {
				s *= namedBoost
			}
			p.score = s * recency(p.dated, ref, o.HalfLifeDays, floor)
			all = append(all, &p)
		}
	}
	sortHits(all)
	o.MMR = false // left out across projects, as the doc above says
	resp.Results = append(resp.Results, pickResults(all, stems, o)...)
	return resp, nil
}

// chunksByID reads the chunks ids of ix as textCandidates reads its
// candidates, with their text scores, in the order of ids; and each
// one's counts of the query stems (see hit.scoreText).
func (ix *Index) chunksByID(ctx context.Context, ids []int64, stems []string, idf map[string]float64, near bool) ([]*hit, map[int64]map[string]float64, error) {
	var total float64
	for _, s := range stems {
		total += idf[s]
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	// the index's mean chunk length comes with every row (avgTokensSQL):
	// a statement fewer per index searched
	rows, err := ix.db.QueryContext(ctx, `
		SELECT c.id, m.stems, m.title, m.heads, c.path, c.start_line, c.end_line, c.text, c.tokens, c.links, f.dated, `+avgTokensSQL+`
		FROM chunks c JOIN chunks_fts m ON m.rowid = c.id JOIN files f ON f.path = c.path
		WHERE c.id IN (?`+strings.Repeat(",?", len(ids)-1)+`)`, args...)
	if err != nil {
		return nil, nil, fmt.Errorf("search %s: %w", ix.Root.Dir, err)
	}
	defer rows.Close()
	byID, tfs := map[int64]*hit{}, map[int64]map[string]float64{}
	for rows.Next() {
		h := &hit{ix: ix}
		var tokens, avg float64
		var title, heads string
		if err := rows.Scan(&h.id, &h.stems, &title, &heads, &h.rel, &h.start, &h.end, &h.text, &tokens, &h.links, &h.dated, &avg); err != nil {
			return nil, nil, fmt.Errorf("search %s: %w", ix.Root.Dir, err)
		}
		tfs[h.id] = h.scoreText(stems, idf, title, heads, tokens/meanTokens(avg), total, near)
		byID[h.id] = h
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("search %s: %w", ix.Root.Dir, err)
	}
	out := make([]*hit, 0, len(byID))
	for _, id := range ids {
		if h := byID[id]; h != nil {
			out = append(out, h)
		}
	}
	return out, tfs, nil
}
