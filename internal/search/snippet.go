package search

import (
	"strings"
	"unicode/utf8"
)

// SnippetChars caps a result's snippet.
const SnippetChars = 700

// snip is the part of a chunk shown for a hit.
type snip struct {
	text     string
	off, n   int     // first line (0-based, inside the chunk) and line count
	coverage float64 // share of the query's weight the snippet holds, 0..1
	stems    map[string]bool
}

// pickSnippets picks up to max runs of whole lines of a chunk that do not
// overlap, each at most SnippetChars long, best first: the run covering
// the most query weight (each query stem counted once, weighted by its
// rarity; more matches break ties), then the best run among the lines
// left, and so on while runs still match. stems holds the chunk's stems
// line by line, as the index stores them.
func pickSnippets(text, stems string, weights map[string]float64, max int) []snip {
	lines := strings.Split(text, "\n")
	stemLines := strings.Split(stems, "\n")
	if len(stemLines) != len(lines) { // stems stored without line breaks
		stemLines = make([]string, len(lines))
		for i, l := range lines {
			stemLines[i] = StemmedText(l)
		}
	}
	var total float64
	for _, w := range weights {
		total += w
	}
	lineStems := make([][]string, len(lines))
	lineScore := make([]float64, len(lines))
	runes := make([]int, len(lines))
	for i, l := range stemLines {
		for _, s := range strings.Fields(l) {
			if w, ok := weights[s]; ok {
				lineStems[i] = append(lineStems[i], s)
				lineScore[i] += w
			}
		}
		runes[i] = utf8.RuneCountInString(lines[i]) + 1
	}
	used := make([]bool, len(lines))
	var out []snip
	for len(out) < max {
		bestStart, bestEnd, bestVal, bestCov := -1, -1, -1.0, 0.0
		for i := range lines {
			if used[i] || (lineScore[i] == 0 && (bestVal >= 0 || len(out) > 0)) {
				continue // a window worth having starts on a matching line
			}
			covered := map[string]bool{}
			var cov, dens float64
			size, j := 0, i
			for j < len(lines) && !used[j] && (j == i || size+runes[j] <= SnippetChars+1) {
				size += runes[j]
				for _, s := range lineStems[j] {
					if !covered[s] {
						covered[s] = true
						cov += weights[s]
					}
				}
				dens += lineScore[j]
				j++
			}
			if v := cov*1000 + dens; v > bestVal {
				bestStart, bestEnd, bestVal, bestCov = i, j, v, cov
			}
		}
		if bestStart < 0 || (len(out) > 0 && bestCov == 0) {
			break
		}
		// a window that could still take earlier lines gets them, for context
		size := 0
		for _, n := range runes[bestStart:bestEnd] {
			size += n
		}
		for bestStart > 0 && !used[bestStart-1] && size+runes[bestStart-1] <= SnippetChars+1 {
			bestStart--
			size += runes[bestStart]
		}
		text := strings.Join(lines[bestStart:bestEnd], "\n")
		if utf8.RuneCountInString(text) > SnippetChars {
			text = string([]rune(text)[:SnippetChars-1]) + "…"
		}
		sn := snip{text: text, off: bestStart, n: bestEnd - bestStart, stems: map[string]bool{}}
		if total > 0 {
			sn.coverage = bestCov / total
		}
		for k := bestStart; k < bestEnd; k++ {
			used[k] = true
			for _, s := range strings.Fields(stemLines[k]) {
				sn.stems[s] = true
			}
		}
		out = append(out, sn)
	}
	return out
}

// stemLines stems text line by line, keeping the line breaks so that a
// snippet can be picked later without stemming again.
func stemLines(text string) (string, int) {
	lines := strings.Split(text, "\n")
	n := 0
	for i, l := range lines {
		st := Stems(l)
		n += len(st)
		lines[i] = strings.Join(st, " ")
	}
	return strings.Join(lines, "\n"), n
}
