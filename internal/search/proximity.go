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

// occurrence is a query word's place in a chunk's stems: its line and
// its position on the line.
type occurrence struct {
	line, pos int
	stem      string
}

// occurrences appends to occ the query words of text (stems separated by
// spaces, lines by newlines), numbering its lines from line, and returns
// the number the next text's first line takes. It reads text once,
// without splitting it: it runs over every candidate chunk.
func occurrences(text string, idf map[string]float64, line int, occ []occurrence) ([]occurrence, int) {
	pos := 0
	for {
		i := strings.IndexAny(text, " \n")
		tok := text
		if i >= 0 {
			tok = text[:i]
		}
		if tok != "" {
			if _, ok := idf[tok]; ok {
				occ = append(occ, occurrence{line, pos, tok})
			}
			pos++
		}
		if i < 0 {
			return occ, line + 1
		}
		if text[i] == '\n' {
			line, pos = line+1, 0
		}
		text = text[i+1:]
	}
}

// proximity is the factor above for the query words' occurrences in a
// chunk (in the order of its lines and words) and the query's IDF weights.
func proximity(occ []occurrence, idf map[string]float64) float64 {
	return proximityFloor + (1-proximityFloor)*closeShareOf(occ, idf, proximityWindow)
}

// closeShare is closeShareOf for lines of stems.
func closeShare(lines []string, idf map[string]float64, w int) float64 {
	occ, _ := occurrences(strings.Join(lines, "\n"), idf, 0, nil)
	return closeShareOf(occ, idf, w)
}

// closeShareOf is the IDF share of the query stems occurring in occ that
// stand within w words of a different query stem on the same line; 1
// when the query has a single stem or none occurs. Scanning back from
// each occurrence to the nearest one of another stem marks both: every
// stem with a different one within w, before or after it, is reached so.
func closeShareOf(occ []occurrence, idf map[string]float64, w int) float64 {
	if len(idf) < 2 || len(occ) == 0 {
		return 1
	}
	present, nearby := map[string]bool{}, map[string]bool{}
	for k, o := range occ {
		present[o.stem] = true
		for j := k - 1; j >= 0 && occ[j].line == o.line && o.pos-occ[j].pos <= w; j-- {
			if occ[j].stem != o.stem {
				nearby[o.stem], nearby[occ[j].stem] = true, true
				break
			}
		}
	}
	var all, got float64
	for _, s := range sortedKeys(present) { // a fixed order: the same sum every time
		all += idf[s]
		if nearby[s] {
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
