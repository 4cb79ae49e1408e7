// Package suggest finds the did-you-mean for a mistyped name: the option
// closest to a word, by prefix or by edit distance, or none when nothing
// is close enough to be the word meant.
//
//	if n := suggest.Nearest("extrem", []string{"standard", "deep", "extreme"}); n != "" {
//		hint = "did you mean " + n + "?"
//	}
package suggest

import "strings"

// Nearest is the option closest to word — a prefix of it, or at most two
// edits away (a third of the word's length for long words) — or "".
func Nearest(word string, options []string) string {
	w := strings.ToLower(word)
	best, bestD := "", 1<<30
	limit := max(2, len([]rune(w))/3)
	for _, o := range options {
		lo := strings.ToLower(o)
		d := editDistance(w, lo)
		if len(w) >= 2 && strings.HasPrefix(lo, w) {
			d = min(d, 1)
		}
		// A suggestion keeps some of the word: "3" is not a typo of "1".
		if d <= limit && (d < len([]rune(w)) || lo == w) && d < bestD && o != word {
			best, bestD = o, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, by rune.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
