package search

import (
	"math"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/text/excerpt"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// SnippetChars caps a result's snippet unless [Options.SnippetChars] says
// otherwise.
const SnippetChars = 1200

// passageK1 saturates a word's repeats inside a passage as BM25's k1
// does inside a chunk: the third "deploy" in a snippet adds little, a
// second query word adds a lot. Passages are never longer than a snippet,
// so there is no length normalization.
const passageK1 = 1.2

// snip is the part of a chunk shown for a hit.
type snip struct {
	text   string
	off, n int     // first line relative to the chunk's first line (negative: context before it) and line count
	score  float64 // the passage's own text score, 0..1 like a chunk's
	stems  map[string]bool
}

// chunkText is a chunk as snippets are cut from it: its lines and their
// stems (as the index stores them, one line of stems per line), the lines
// of the file just before and after it, which a snippet may take as
// context but not match on.
type chunkText struct {
	text, stems   string
	before, after []string
	fields        map[string]float64 // query stems in the file's title and the chunk's headings (see fieldCounts)
}

// pickSnippets picks up to max runs of whole lines that do not overlap,
// each at most limit runes long, best first. A run's matching core
// starts and ends on a chunk line holding a query word; it is the core
// scoring best by BM25 over its own words (IDF weights, repeats
// saturated), the smaller core winning a tie, and it must leave room for
// the line that follows its last match — what comes after a line that
// matches (the answer to a question, the items under a heading) is what
// the reader wants to see. The run is then padded with the lines after
// the core, then before it, while they fit, across the chunk's edges.
func pickSnippets(c chunkText, weights map[string]float64, max, limit int) []snip {
	own := strings.Split(c.text, "\n")
	ownStems := strings.Split(c.stems, "\n")
	if len(ownStems) != len(own) { // stems stored without line breaks
		ownStems = make([]string, len(own))
		for i, l := range own {
			ownStems[i] = textan.StemmedText(l)
		}
	}
	first := len(c.before)
	lines := make([]string, 0, first+len(own)+len(c.after))
	lines = append(append(append(lines, c.before...), own...), c.after...)
	stemLines := make([]string, len(lines))
	copy(stemLines[first:], ownStems)
	keys := make([]string, 0, len(weights))
	for k := range weights {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var total float64
	for _, k := range keys {
		total += weights[k]
	}
	lineTF := make([]map[string]int, len(lines))
	runes := make([]int, len(lines))
	for i := range lines {
		if i >= first && i < first+len(own) {
			for _, s := range strings.Fields(stemLines[i]) {
				if _, ok := weights[s]; ok {
					if lineTF[i] == nil {
						lineTF[i] = map[string]int{}
					}
					lineTF[i][s]++
				}
			}
		}
		runes[i] = utf8.RuneCountInString(lines[i]) + 1
	}
	used := make([]bool, len(lines))
	fits := func(size, i int) bool { return i >= 0 && i < len(lines) && !used[i] && size+runes[i] <= limit+1 }
	var out []snip
	for len(out) < max {
		bestS, bestE, bestSize, bestVal := -1, -1, 0, 0.0
		for s := range lines {
			if used[s] || lineTF[s] == nil {
				continue
			}
			tf := map[string]float64{}
			for k, n := range c.fields { // a passage is under its title and headings
				tf[k] += n
			}
			size := 0
			for e := s; e < len(lines) && (e == s || fits(size, e)); e++ {
				size += runes[e]
				if lineTF[e] == nil {
					continue
				}
				for k, n := range lineTF[e] {
					tf[k] += float64(n)
				}
				if e > s && e+1 < len(lines) && !used[e+1] && !fits(size, e+1) {
					continue // no room left for what follows the last match
				}
				v := passageBM25(tf, weights, keys)
				if v > bestVal || (v == bestVal && bestS >= 0 && size < bestSize) {
					bestS, bestE, bestSize, bestVal = s, e+1, size, v
				}
			}
		}
		if bestS < 0 {
			if len(out) > 0 {
				break
			}
			// nothing matches in the lines (a hit found by its title or
			// its vector): the chunk's start, under its title and headings
			bestS, bestE, bestSize = first, first+1, runes[first]
			bestVal = passageBM25(c.fields, weights, keys)
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
		// a snippet starts and ends on text: blank lines at its edges
		// (a frontmatter's, kept blank in the index) give their room to
		// the lines after it
		for bestS < bestE-1 && strings.TrimSpace(lines[bestS]) == "" {
			bestSize -= runes[bestS]
			bestS++
			for fits(bestSize, bestE) {
				bestSize += runes[bestE]
				bestE++
			}
		}
		for bestE-1 > bestS && strings.TrimSpace(lines[bestE-1]) == "" {
			bestE--
		}
		text := strings.Join(lines[bestS:bestE], "\n")
		if utf8.RuneCountInString(text) > limit {
			// a line longer than a snippet: the window of it around the
			// match, and the citation only the lines that window shows
			ex := excerpt.Cut(lines[bestS:bestE], weights, limit)
			text, bestS, bestE = ex.Text, bestS+ex.First, bestS+ex.Last+1
		}
		sn := snip{text: text, off: bestS - first, n: bestE - bestS, stems: map[string]bool{}}
		if total > 0 {
			sn.score = 1 - math.Exp(-bestVal/total)
		}
		for k := bestS; k < bestE; k++ {
			used[k] = true
			st := strings.Fields(stemLines[k])
			if k < first || k >= first+len(own) {
				st = textan.Stems(lines[k])
			}
			for _, s := range st {
				sn.stems[s] = true
			}
		}
		out = append(out, sn)
	}
	return out
}

// passageBM25 scores a passage by its query words: each word's IDF times
// its saturated count, summed in the order of keys (sorted query stems):
// a fixed order gives the same sum every time, so ties stay ties.
func passageBM25(tf map[string]float64, weights map[string]float64, keys []string) float64 {
	var v float64
	for _, k := range keys {
		if f := tf[k]; f > 0 {
			v += weights[k] * f * (passageK1 + 1) / (f + passageK1)
		}
	}
	return v
}

// stemLines stems text line by line, keeping the line breaks so that a
// snippet can be picked later without stemming again.
func stemLines(text string) (string, int) {
	lines := strings.Split(text, "\n")
	n := 0
	for i, l := range lines {
		st := textan.Stems(l)
		n += len(st)
		lines[i] = strings.Join(st, " ")
	}
	return strings.Join(lines, "\n"), n
}
