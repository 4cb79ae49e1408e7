package search

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// How one index gives its candidates for a query: FTS5's best chunks
// scored again with our BM25F, or the nearest vectors.

// ftsQuery ORs the stems: any of them may match, BM25 ranks how well.
func ftsQuery(stems []string) string {
	q := make([]string, len(stems))
	for i, s := range stems {
		q[i] = `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return strings.Join(q, " OR ")
}

// rootsMatch is the MATCH of a search of the roots of idxs (which share
// one desk index) for the stems: FTS5 reads the entries of those roots'
// chunks only, whatever else the desk holds. When they are most of the
// desk (a search across projects) the roots left out are named instead,
// and none when none is: a filter of two hundred roots costs more than
// the search.
func rootsMatch(idxs []*Index, stems []string) string {
	q := "(" + ftsQuery(stems) + ")"
	in := map[int64]bool{}
	for _, ix := range idxs {
		in[ix.id] = true
	}
	var out []string
	if len(idxs) > 4 {
		rows, err := idxs[0].db.Query(`SELECT id FROM roots`)
		if err == nil {
			for rows.Next() {
				var id int64
				if rows.Scan(&id) == nil && !in[id] {
					out = append(out, rootTerm(id))
				}
			}
			rows.Close()
			if rows.Err() == nil && len(out) < len(in) {
				if len(out) == 0 {
					return q
				}
				return q + " NOT root : (" + strings.Join(out, " OR ") + ")"
			}
		}
	}
	terms := make([]string, 0, len(in))
	for _, ix := range idxs {
		if in[ix.id] {
			terms = append(terms, rootTerm(ix.id))
			delete(in, ix.id)
		}
	}
	return "root : (" + strings.Join(terms, " OR ") + ") AND " + q
}

// BM25 parameters, the usual ones (and FTS5's).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// textCandidates takes the pool best chunks by FTS5's BM25 and scores
// them again with an always-positive IDF, ln(1+(N−n+0.5)/(n+0.5)): FTS5
// clamps the IDF of a term in more than half the chunks to almost zero,
// which flattens small memories to scores of nothing. The score is then
// set against the query's total IDF T as 1 − e^(−score/T), so that every
// query word once in a chunk of average length scores 0.63 whatever the
// corpus, half the query's weight 0.39, and nothing ties at a cap.
//
// The roots of idxs (one desk index) are searched by one query, their
// pool best chunks together: a search across the desk costs one query,
// and a chunk scores the same whichever roots are asked with it.
// only, when not nil, limits the candidates to those files of the one
// root in idxs, within to the files dated in it; near applies the
// proximity factor (see proximity).
func textCandidates(ctx context.Context, idxs []*Index, stems, match []string, idf map[string]float64, pool int, into map[int64]*hit, only []string, within *DayRange, near bool) error {
	if len(match) == 0 || len(idxs) == 0 {
		return nil
	}
	ix := idxs[0]
	byRoot := make(map[int64]*Index, len(idxs))
	for _, x := range idxs {
		if byRoot[x.id] == nil {
			byRoot[x.id] = x
		}
	}
	filter, args := onlyFiles(ix.id, only)
	pf, pargs := within.filter()
	filter, args = filter+pf, append(args, pargs...)
	args = append(append([]any{rootsMatch(idxs, match)}, args...), pool)
	var total float64
	for _, s := range stems {
		total += idf[s]
	}
	rows, err := ix.db.QueryContext(ctx, `
		WITH m AS (SELECT rowid AS id FROM chunks_fts
		           WHERE chunks_fts MATCH ?`+filter+` ORDER BY rank LIMIT ?)
		SELECT m.id, c.stems, f.title, c.heads, c.root, c.path, c.start_line, c.end_line, c.text, c.tokens, c.links, f.dated, `+avgTokensSQL+`
		FROM m JOIN chunks c ON c.id = m.id JOIN files f ON f.root = c.root AND f.path = c.path`, args...)
	if err != nil {
		return fmt.Errorf("search %s: %w", ix.Root.Dir, err)
	}
	defer rows.Close()
	for rows.Next() {
		h := &hit{}
		var tokens, avg float64
		var title, heads string
		var root int64
		var code []byte
		if err := rows.Scan(&h.id, &code, &title, &heads, &root, &h.rel, &h.start, &h.end, &h.text, &tokens, &h.links, &h.dated, &avg); err != nil {
			return fmt.Errorf("search %s: %w", ix.Root.Dir, err)
		}
		if h.ix = byRoot[root]; h.ix == nil {
			continue
		}
		if h.stems, err = chunkStems(h.text, code); err != nil {
			return fmt.Errorf("search %s: %w", ix.Root.Dir, err)
		}
		h.scoreText(stems, idf, title, heads, tokens/meanTokens(avg), total, near)
		into[h.id] = h
	}
	return rows.Err()
}

// avgTokensSQL is the index's mean chunk length as a column of the rows
// that need it (SQLite evaluates the subquery once per statement), rather
// than a query of its own.
const avgTokensSQL = `coalesce((SELECT CAST(value AS REAL) FROM meta WHERE key='tokens') / nullif((SELECT CAST(value AS REAL) FROM meta WHERE key='chunks'), 0), 0)`

// meanTokens is avgTokensSQL's value as BM25's length normalisation uses
// it: an index that has none yet counts every chunk as of mean length.
func meanTokens(avg float64) float64 {
	if avg <= 0 {
		return 1
	}
	return avg
}

// vectorCandidates adds the pool chunks nearest to qvec (by cosine) and
// fills the vector score of text candidates; it returns how many chunks
// had a vector.
func (ix *Index) vectorCandidates(ctx context.Context, qvec []float32, pool int, into map[int64]*hit) (int, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT id, embedding FROM chunks WHERE root = ? AND embedding IS NOT NULL`, ix.id)
	if err != nil {
		return 0, fmt.Errorf("search vectors of %s: %w", ix.Root.Dir, err)
	}
	type scored struct {
		id  int64
		sim float64
	}
	var all []scored
	for rows.Next() {
		var id int64
		var b []byte
		if err := rows.Scan(&id, &b); err != nil {
			rows.Close()
			return 0, fmt.Errorf("search vectors of %s: %w", ix.Root.Dir, err)
		}
		all = append(all, scored{id, dot(qvec, decodeVector(b))})
	}
	rows.Close()
	sort.Slice(all, func(i, j int) bool { return all[i].sim > all[j].sim })
	for i, s := range all {
		if h, ok := into[s.id]; ok {
			h.vecScore = s.sim
			continue
		}
		if i >= pool {
			continue
		}
		h := &hit{ix: ix, id: s.id, vecScore: s.sim}
		var code []byte
		err := ix.db.QueryRowContext(ctx, `
			SELECT c.path, c.start_line, c.end_line, c.text, f.dated, c.stems
			FROM chunks c JOIN files f ON f.root = c.root AND f.path = c.path
			WHERE c.id = ?`, s.id).Scan(&h.rel, &h.start, &h.end, &h.text, &h.dated, &code)
		if err == nil {
			h.stems, err = chunkStems(h.text, code)
		}
		if err != nil {
			return 0, fmt.Errorf("search vectors of %s: %w", ix.Root.Dir, err)
		}
		into[s.id] = h
	}
	return len(all), nil
}
