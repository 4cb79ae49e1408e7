// Package excerpt cuts, from lines of memory, the part a reader should see
// for a query: the span holding the most distinct query words, with as much
// around it as fits. Search snippets, auto-recall and the black box's recall
// items all cut with it, so what is shown holds the match, never ends
// mid-word, and is cited by exactly the lines it shows.
//
// Use [Cut] with the lines of a passage, the query's stems (as
// [textan.Stems] or [textan.Terms] give them, the keys of a map) and a size in characters
// (runes); [Excerpt.First] and [Excerpt.Last] index the lines shown.
package excerpt

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// Ellipsis marks a side where a line was cut.
const Ellipsis = "…"

// Excerpt is what [Cut] shows: Text, and the indexes of the first and last
// of the given lines it shows (in part or whole).
type Excerpt struct {
	Text        string
	First, Last int
	// Matched is how many distinct query stems the text holds.
	Matched  int
	from, to int // rune offsets of the text shown in the lines joined by "\n"
}

// word is one word of the joined text, in runes.
type word struct {
	start, end int // [start, end) rune offsets
	stem       string
}

// Cut returns the excerpt of lines for the query stems terms (its keys; a
// map to float64 weighs them, a rare word above a common one; without
// weights, a word on fewer of the lines weighs more), at most max
// runes long (ellipses included). When whole lines fit, it shows whole
// lines: those around the best span, the following line first (what
// comes after a match — the answer, the items under a heading — is what a
// reader wants), then alternately before and after. When the lines
// holding the best span are longer than max, it shows a window centred on
// the span, cut at word boundaries, with an ellipsis on each cut side; a
// word is cut only when it alone is longer than the window. With no query
// word in the lines it shows their start. Lines holding nothing but
// spaces at the edges of the excerpt are left out.
func Cut[V any](lines []string, terms map[string]V, max int) Excerpt {
	if len(lines) == 0 || max <= 0 {
		return Excerpt{}
	}
	if max < 3 {
		max = 3
	}
	text := strings.Join(lines, "\n")
	rs := []rune(text)
	// line of each rune, and where each line starts
	lineStart := make([]int, len(lines)+1)
	pos := 0
	for i, l := range lines {
		lineStart[i] = pos
		pos += utf8.RuneCountInString(l) + 1
	}
	lineStart[len(lines)] = pos // one past the final "\n" that is not there
	lineOf := func(r int) int {
		lo, hi := 0, len(lines)-1
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if lineStart[mid] <= r {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		return lo
	}
	words := split(rs)
	weight := make(map[string]float64, len(terms))
	weighed := false
	for k, v := range terms {
		weight[k] = 1
		if f, ok := any(v).(float64); ok && f > 0 {
			weight[k], weighed = f, true
		}
	}
	if !weighed {
		lineWeights(words, weight, lineOf, lines)
	}
	a, b, w := bestSpan(words, weight, max-2)
	none := a < 0
	if none { // nothing matches: the start
		a, b = 0, 0
		for i := range rs {
			if !unicode.IsSpace(rs[i]) {
				a, b = i, i
				break
			}
		}
	}
	la, lb := lineOf(a), lineOf(max0(b-1, a))
	size := func(f, l int) int { return lineStart[l+1] - 1 - lineStart[f] }
	if !none {
		// whole lines holding as much of the query as the best span, if
		// any do, rather than a piece of a line
		if f, l, lw := lineCore(words, weight, lineOf, size, len(lines), max); lw >= w-1e-9 {
			la, lb = f, l
		}
	}
	if size(la, lb) <= max {
		f, l := la, lb
		for grew := true; grew; {
			grew = false
			if l+1 < len(lines) && size(f, l+1) <= max {
				l++
				grew = true
			}
			if f > 0 && size(f-1, l) <= max {
				f--
				grew = true
			}
		}
		for f < l && strings.TrimSpace(lines[f]) == "" && f < la {
			f++
		}
		for l > f && strings.TrimSpace(lines[l]) == "" && l > lb {
			l--
		}
		out := strings.Join(lines[f:l+1], "\n")
		from, to := lineStart[f], lineStart[l+1]-1
		return Excerpt{Text: out, First: f, Last: l, Matched: matched(words, terms, from, to), from: from, to: to}
	}
	// A window of runes centred on the span, or from the start of its
	// line when that fits: a line's head says who or what it is about.
	win := max - 2
	s, e := (a+b)/2-win/2, 0
	switch {
	case b-lineStart[la] <= win:
		s = lineStart[la]
	case none:
		s = a
	}
	if s+win > len(rs) {
		s = len(rs) - win
	}
	if s < 0 {
		s = 0
	}
	e = s + win
	if e > len(rs) {
		e = len(rs)
	}
	if b-a > win { // one word longer than the window: cut it
		s, e = a, a+win
	} else if s2, e2 := snap(rs, s, e); s2 < e2 {
		s, e = s2, e2
	} // else the window lies inside one word longer than it: cut it
	for s < e && unicode.IsSpace(rs[s]) {
		s++
	}
	for e > s && unicode.IsSpace(rs[e-1]) {
		e--
	}
	var out strings.Builder
	first, last := lineOf(s), lineOf(max0(e-1, s))
	if strings.TrimSpace(string(rs[lineStart[first]:s])) != "" {
		out.WriteString(Ellipsis)
	}
	out.WriteString(string(rs[s:e]))
	if strings.TrimSpace(string(rs[e:lineStart[last+1]-1])) != "" {
		out.WriteString(Ellipsis)
	}
	return Excerpt{Text: out.String(), First: first, Last: last, Matched: matched(words, terms, s, e), from: s, to: e}
}

func max0(a, b int) int {
	if a < b {
		return b
	}
	return a
}

// inWord is a rune textan keeps inside a word.
func inWord(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// split finds the words of rs as textan reads them, with their stems.
func split(rs []rune) []word {
	var out []word
	for i := 0; i < len(rs); {
		if !inWord(rs[i]) {
			i++
			continue
		}
		j := i
		for j < len(rs) && inWord(rs[j]) {
			j++
		}
		st := ""
		if ws := textan.Words(string(rs[i:j])); len(ws) > 0 {
			st = textan.Stem(ws[0])
		}
		out = append(out, word{start: i, end: j, stem: st})
		i = j
	}
	return out
}

// lineWeights weighs query stems that came without weights by the lines
// holding them, as IDF does by documents: a word on every line of the text
// (a speaker's name in a conversation, the page's subject) says little
// about which line to show, one on a single line says much.
func lineWeights(words []word, weight map[string]float64, lineOf func(int) int, lines []string) {
	n := 0
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			n++
		}
	}
	df := map[string]int{}
	last := map[string]int{}
	for _, w := range words {
		if _, ok := weight[w.stem]; !ok {
			continue
		}
		if i := lineOf(w.start) + 1; last[w.stem] != i {
			last[w.stem] = i
			df[w.stem]++
		}
	}
	for k, d := range df {
		weight[k] = math.Log(1 + float64(n)/float64(d))
	}
}

// lineCore is the run of whole lines f..l, at most max runes, holding
// the query stems of the most weight; more occurrences, then fewer lines,
// break ties. w is -1 when no run of lines fits.
func lineCore(words []word, weight map[string]float64, lineOf func(int) int, size func(int, int) int, n, max int) (f, l int, w float64) {
	byLine := make([][]string, n)
	for _, wd := range words {
		if _, ok := weight[wd.stem]; ok {
			i := lineOf(wd.start)
			byLine[i] = append(byLine[i], wd.stem)
		}
	}
	w, bestN := -1.0, 0
	for i := 0; i < n; i++ {
		if len(byLine[i]) == 0 {
			continue
		}
		seen := map[string]bool{}
		sum, cnt := 0.0, 0
		for j := i; j < n && size(i, j) <= max; j++ {
			for _, st := range byLine[j] {
				if !seen[st] {
					seen[st] = true
					sum += weight[st]
				}
				cnt++
			}
			if len(byLine[j]) == 0 {
				continue
			}
			switch d := sum - w; {
			case d > 1e-9, d > -1e-9 && (cnt > bestN || cnt == bestN && j-i < l-f):
				f, l, w, bestN = i, j, sum, cnt
			}
		}
	}
	return f, l, w
}

// bestSpan is the rune range [a, b) from the start of one query word to the
// end of another, at most win long, holding the most distinct query stems
// (by weight); more occurrences, then the shorter span, break ties. A
// single query word longer than win is a span of its own. -1 when no query
// word occurs. w is the span's weight.
func bestSpan(words []word, weight map[string]float64, win int) (a0, b0 int, w float64) {
	var ms []word
	for _, w := range words {
		if _, ok := weight[w.stem]; ok {
			ms = append(ms, w)
		}
	}
	if len(ms) == 0 {
		return -1, -1, 0
	}
	bestA, bestB, bestW, bestN := ms[0].start, ms[0].end, -1.0, 0
	count := map[string]int{}
	sum := 0.0
	j := 0
	for i := range ms {
		for j < len(ms) && (j == i || ms[j].end-ms[i].start <= win) {
			if count[ms[j].stem] == 0 {
				sum += weight[ms[j].stem]
			}
			count[ms[j].stem]++
			j++
		}
		n, a, b := j-i, ms[i].start, ms[j-1].end
		switch d := sum - bestW; {
		case d > 1e-9, d > -1e-9 && (n > bestN || n == bestN && b-a < bestB-bestA):
			bestA, bestB, bestW, bestN = a, b, sum, n
		}
		if count[ms[i].stem]--; count[ms[i].stem] == 0 {
			sum -= weight[ms[i].stem]
		}
	}
	return bestA, bestB, bestW
}

// snap moves s forward and e backward off any word they would cut.
func snap(rs []rune, s, e int) (int, int) {
	if s > 0 && s < len(rs) && inWord(rs[s-1]) && inWord(rs[s]) {
		for s < e && inWord(rs[s]) {
			s++
		}
	}
	if e < len(rs) && e > 0 && inWord(rs[e-1]) && inWord(rs[e]) {
		for e > s && inWord(rs[e-1]) {
			e--
		}
	}
	return s, e
}

// matched counts the distinct query stems among the words inside [s, e).
func matched[V any](words []word, terms map[string]V, s, e int) int {
	seen := map[string]bool{}
	for _, w := range words {
		if _, ok := terms[w.stem]; ok && w.start >= s && w.end <= e {
			seen[w.stem] = true
		}
	}
	return len(seen)
}
