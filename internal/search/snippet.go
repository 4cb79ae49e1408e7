package search

import (
	"strings"
	"unicode/utf8"
)

// SnippetChars caps a result's snippet.
const SnippetChars = 700

// snippet picks the run of whole lines of a chunk, at most SnippetChars
// long, that covers the most query weight (each query stem counted once,
// weighted by its rarity), and returns it with its line offset inside the
// chunk and its line count.
func snippet(text string, weights map[string]float64) (string, int, int) {
	lines := strings.Split(text, "\n")
	if utf8.RuneCountInString(text) <= SnippetChars {
		return text, 0, len(lines)
	}
	lineStems := make([][]string, len(lines))
	lineScore := make([]float64, len(lines))
	for i, l := range lines {
		seen := map[string]bool{}
		for _, s := range Stems(l) {
			if w, ok := weights[s]; ok && !seen[s] {
				seen[s] = true
				lineStems[i] = append(lineStems[i], s)
				lineScore[i] += w
			}
		}
	}
	bestStart, bestEnd, bestVal := 0, 1, -1.0
	for i := range lines {
		if lineScore[i] == 0 && bestVal >= 0 {
			continue // a window worth having starts on a matching line
		}
		covered := map[string]bool{}
		var cov, dens float64
		size := 0
		j := i
		for j < len(lines) {
			n := utf8.RuneCountInString(lines[j]) + 1
			if j > i && size+n > SnippetChars+1 {
				break
			}
			size += n
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
			bestStart, bestEnd, bestVal = i, j, v
		}
	}
	// a window that could still take earlier lines gets them, for context
	size := 0
	for _, l := range lines[bestStart:bestEnd] {
		size += utf8.RuneCountInString(l) + 1
	}
	for bestStart > 0 && size+utf8.RuneCountInString(lines[bestStart-1])+1 <= SnippetChars+1 {
		bestStart--
		size += utf8.RuneCountInString(lines[bestStart]) + 1
	}
	out := strings.Join(lines[bestStart:bestEnd], "\n")
	if utf8.RuneCountInString(out) > SnippetChars {
		out = string([]rune(out)[:SnippetChars-1]) + "…"
	}
	return out, bestStart, bestEnd - bestStart
}
