package search

import (
	"math"
	"strings"
	"unicode/utf8"
)

// SnippetChars caps a result's snippet.
const SnippetChars = 700

// passageK1 saturates a word's repeats inside a passage as BM25's k1
// does inside a chunk: the third "deploy" in a snippet adds little, a
// second query word adds a lot. Passages are never longer than a snippet,
// so there is no length normalization.
const passageK1 = 1.2

// snip is the part of a chunk shown for a hit.
type snip struct {
	text   string
	off, n int     // first line (0-based, inside the chunk) and line count
	score  float64 // the passage's own text score, 0..1 like a chunk's
	stems  map[string]bool
}

// pickSnippets picks up to max runs of whole lines of a chunk that do not
// overlap, each at most SnippetChars long, best first. The matching core
// of each run starts and ends on a line holding a query word and is the
// one scoring best by BM25 over its own words (IDF-weighted, repeats
// saturated), the smaller core winning a tie; the run is then padded with
// the lines after the core, then before it, while they fit. stems holds
// the chunk's stems line by line, as the index stores them; weights the
// query stems' IDF.
func pickSnippets(text, stems string, fileStart bool, weights map[string]float64, max int) []snip {
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
	meta := 0
	if fileStart {
		meta = frontmatterLines(lines)
	}
	lineTF := make([]map[string]int, len(lines))
	runes := make([]int, len(lines))
	for i, l := range stemLines {
		for _, s := range strings.Fields(l) {
			if i < meta {
				break
			}
			if _, ok := weights[s]; ok {
				if lineTF[i] == nil {
					lineTF[i] = map[string]int{}
				}
				lineTF[i][s]++
			}
		}
		runes[i] = utf8.RuneCountInString(lines[i]) + 1
	}
	used := make([]bool, len(lines))
	fits := func(size, i int) bool { return i >= 0 && i < len(lines) && !used[i] && size+runes[i] <= SnippetChars+1 }
	var out []snip
	for len(out) < max {
		bestS, bestE, bestSize, bestVal := -1, -1, 0, 0.0
		for s := range lines {
			if used[s] || lineTF[s] == nil {
				continue
			}
			tf := map[string]int{}
			size := 0
			for e := s; e < len(lines) && (e == s || fits(size, e)); e++ {
				size += runes[e]
				if lineTF[e] == nil {
					continue
				}
				for k, n := range lineTF[e] {
					tf[k] += n
				}
				v := passageBM25(tf, weights)
				if v > bestVal || (v == bestVal && bestS >= 0 && size < bestSize) {
					bestS, bestE, bestSize, bestVal = s, e+1, size, v
				}
			}
		}
		if bestS < 0 {
			if len(out) > 0 {
				break
			}
			bestS, bestE, bestSize = 0, 1, runes[0] // nothing matches (a vector-only hit): the chunk's start
		}
		for {
			if fits(bestSize, bestE) {
				bestSize += runes[bestE]
				bestE++
			} else if fits(bestSize, bestS-1) {
				bestS--
				bestSize += runes[bestS]
			} else {
				break
			}
		}
		text := strings.Join(lines[bestS:bestE], "\n")
		if utf8.RuneCountInString(text) > SnippetChars {
			text = string([]rune(text)[:SnippetChars-1]) + "…"
		}
		sn := snip{text: text, off: bestS, n: bestE - bestS, stems: map[string]bool{}}
		if total > 0 {
			sn.score = 1 - math.Exp(-bestVal/total)
		}
		for k := bestS; k < bestE; k++ {
			used[k] = true
			for _, s := range strings.Fields(stemLines[k]) {
				sn.stems[s] = true
			}
		}
		out = append(out, sn)
	}
	return out
}

// frontmatterLines is how many lines a YAML front matter block takes at
// the start of lines (0 without one). Its words still rank the chunk, but
// a snippet of metadata shows nothing worth reading, so no snippet is
// built around it.
func frontmatterLines(lines []string) int {
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "---" {
		return 0
	}
	for i := 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == "---" {
			return i + 1
		}
	}
	return 0
}

// passageBM25 scores a passage by its query words: each word's IDF times
// its saturated count.
func passageBM25(tf map[string]int, weights map[string]float64) float64 {
	var v float64
	for k, n := range tf {
		f := float64(n)
		v += weights[k] * f * (passageK1 + 1) / (f + passageK1)
	}
	return v
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
