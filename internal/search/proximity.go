package search

import (
	"sort"
	"strings"
)

// Proximity: a chunk whose query words stand together on a line ("painted
// a sunrise", "goal average") is about what the query asks more often
// than one where the same words lie scattered over unrelated lines. BM25
// counts words, not where they stand, so a chunk's text score is
// multiplied by
//
//	proximityFloor + (1 − proximityFloor) × close
//
// where close is the IDF share of the query words the chunk holds that
// stand within proximityWindow words of another of the query's words on
// one of its lines (its title and headings count as lines). A query of
// one word, or a chunk with none in its lines, keeps its score. The factor
// never raises a score, so the bounds a search across projects prunes by
// (bounds in across.go) still hold, as they do for the link penalty.
//
// The window is BM25TP's (Rasolofo and Savoy 2003: pairs of query terms
// at most 5 words apart). The floor was chosen by cross-validation on the
// LoCoMo dev split, each half picking its best by MRR (0.5 and 0.9) and
// the default taking their mean; docs/search.md gives the sweep.
const (
	proximityFloor  = 0.7
	proximityWindow = 5
)

// proximity is the factor above for a chunk's lines of stems (one line of
// space-separated stems per line) and the query's IDF weights.
func proximity(lines []string, idf map[string]float64) float64 {
	return proximityFloor + (1-proximityFloor)*closeShare(lines, idf, proximityWindow)
}

// closeShare is the IDF share of the query stems found in lines that
// stand within w words of a different query stem on the same line; 1 when
// the query has a single stem or none is found.
func closeShare(lines []string, idf map[string]float64, w int) float64 {
	if len(idf) < 2 {
		return 1
	}
	present, close := map[string]bool{}, map[string]bool{}
	for _, l := range lines {
		st := strings.Fields(l)
		for i, a := range st {
			if _, ok := idf[a]; !ok {
				continue
			}
			present[a] = true
			if close[a] {
				continue
			}
			for j := max(0, i-w); j < len(st) && j <= i+w; j++ {
				if b := st[j]; b != a {
					if _, ok := idf[b]; ok {
						close[a] = true
						break
					}
				}
			}
		}
	}
	var all, got float64
	for _, s := range sortedKeys(present) { // a fixed order: the same sum every time
		all += idf[s]
		if close[s] {
			got += idf[s]
		}
	}
	if all <= 0 {
		return 1
	}
	return got / all
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
