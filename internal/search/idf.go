package search

import (
	"fmt"
	"math"
	"sort"
)

// A query word's weight in one index, and which words pick candidates.

// commonShare is the share of chunks above which a query word stops
// selecting candidates (it still counts in their scores): a word in most
// chunks ranks almost nothing, yet would make FTS5 score nearly every
// chunk, the cost growing with the memory.
const commonShare = 0.3

// weights gives each query stem its inverse document frequency in this
// index, ln(1+(N−n+0.5)/(n+0.5)), and picks the stems that select
// candidates: those in at most commonShare of the chunks, or all of them
// when every one is that common.
func (ix *Index) weights(stems []string) (idf map[string]float64, match []string, err error) {
	df, n, err := ix.docFreqs(stems)
	if err != nil {
		return nil, nil, err
	}
	idf, match = weightsFrom(stems, df, n)
	return idf, match, nil
}

// docFreqs counts the chunks holding each stem, and all chunks.
func (ix *Index) docFreqs(stems []string) (df map[string]float64, chunks float64, err error) {
	var n float64
	// the desk's counts: every root is scored with the same statistics,
	// so a passage scores alike in a search of its project and of the desk
	if err := ix.db.QueryRow(`SELECT CAST(value AS REAL) FROM meta WHERE key='chunks'`).Scan(&n); err != nil {
		return nil, 0, fmt.Errorf("search %s: %w", ix.Root.Dir, err)
	}
	df = make(map[string]float64, len(stems))
	// prepared once for all the stems: parsing is most of what each
	// lookup costs
	st, err := ix.db.Prepare(`SELECT doc FROM chunks_vocab WHERE term = ?`)
	if err != nil {
		return nil, 0, fmt.Errorf("search %s: %w", ix.Root.Dir, err)
	}
	defer st.Close()
	for _, s := range stems {
		var d float64
		if err := st.QueryRow(s).Scan(&d); err != nil {
			d = 0
		}
		df[s] = d
	}
	return df, n, nil
}

// weightsFrom is [Index.weights] from the counts.
func weightsFrom(stems []string, df map[string]float64, n float64) (map[string]float64, []string) {
	w := map[string]float64{}
	var rare, present []string
	for _, s := range stems {
		w[s] = idfOf(df[s], n)
		if df[s] == 0 {
			continue
		}
		present = append(present, s)
		if df[s] <= commonShare*n {
			rare = append(rare, s)
		}
	}
	if len(rare) == 0 {
		rare = present
	}
	return w, bounded(rare, df)
}

// matchPostings bounds the chunks FTS5 scores for one query: the words
// that select candidates are taken rarest first while their chunks add up
// to at most this many (always one). FTS5 ranks every chunk a selecting
// word is in before its LIMIT, so without a bound a query of common words
// costs in proportion to the memory, a year's ten times a month's; the
// words left out still count in the candidates' scores. A small memory
// never reaches it.
const matchPostings = 50000

// bounded keeps the rarest stems of match whose chunk counts add up to
// matchPostings, in query order.
func bounded(match []string, df map[string]float64) []string {
	total := 0.0
	for _, s := range match {
		total += df[s]
	}
	if total <= matchPostings {
		return match
	}
	byDF := append([]string(nil), match...)
	sort.SliceStable(byDF, func(i, j int) bool { return df[byDF[i]] < df[byDF[j]] })
	keep := map[string]bool{}
	sum := 0.0
	for i, s := range byDF {
		if i > 0 && sum+df[s] > matchPostings {
			break
		}
		sum += df[s]
		keep[s] = true
	}
	out := match[:0:0]
	for _, s := range match {
		if keep[s] {
			out = append(out, s)
		}
	}
	return out
}

// idfOf is the always-positive IDF of a word in df of n chunks.
func idfOf(df, n float64) float64 { return math.Log(1 + (n-df+0.5)/(df+0.5)) }
