package main

import (
	"math"
	"os"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// The baselines every figure is compared with in the same run: a grep-like
// word count and plain BM25 over windows of lines.

// grepSearch is the baseline: read the files, count case-insensitive
// whole-word occurrences of the query's non-stop words per line, score
// every window of lines up to a snippet's length by its total, and return
// the best k windows that do not overlap.
func grepSearch(files []string, query string, k int) ([]string, error) {
	var words []string
	for _, w := range textan.Words(query) {
		if !textan.IsStopWord(w) {
			words = append(words, w)
		}
	}
	type win struct {
		file, from, to int
		score          int
		text           string
	}
	var wins []win
	for fi, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		lines := strings.Split(string(data), "\n")
		counts := make([]int, len(lines))
		for i, l := range lines {
			for _, lw := range textan.Words(l) {
				for _, w := range words {
					if lw == w {
						counts[i]++
					}
				}
			}
		}
		for i := range lines {
			if counts[i] == 0 {
				continue
			}
			size, score, j := 0, 0, i
			for j < len(lines) && (j == i || size+len(lines[j])+1 <= search.SnippetChars) {
				size += len(lines[j]) + 1
				score += counts[j]
				j++
			}
			wins = append(wins, win{fi, i, j, score, strings.Join(lines[i:j], "\n")})
		}
	}
	sort.SliceStable(wins, func(a, b int) bool { return wins[a].score > wins[b].score })
	var out []string
	var picked []win
	for _, w := range wins {
		if len(out) == k {
			break
		}
		clash := false
		for _, p := range picked {
			if p.file == w.file && w.from < p.to && p.from < w.to {
				clash = true
				break
			}
		}
		if !clash {
			picked = append(picked, w)
			out = append(out, w.text)
		}
	}
	return out, nil
}

// windows are the baselines' documents: runs of n lines of each file,
// starting every n/2 lines, each a document of its own.
type windows struct {
	text  []string
	stems [][]string
	words [][]string
	file  []int
	from  []int
	n     int
	df    map[string]int
	avg   float64
}

func readWindows(files []string, n int) (*windows, error) {
	ws := &windows{n: n, df: map[string]int{}}
	step := n
	total := 0
	for fi, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		for s := 0; s < len(lines); s += step {
			e := min(s+n, len(lines))
			t := strings.Join(lines[s:e], "\n")
			st := textan.Stems(t)
			ws.text = append(ws.text, t)
			ws.stems = append(ws.stems, st)
			ws.words = append(ws.words, textan.Words(t))
			ws.file = append(ws.file, fi)
			ws.from = append(ws.from, s)
			total += len(st)
			seen := map[string]bool{}
			for _, x := range st {
				if !seen[x] {
					seen[x] = true
					ws.df[x]++
				}
			}
			if e == len(lines) {
				break
			}
		}
	}
	ws.avg = float64(total) / math.Max(float64(len(ws.text)), 1)
	return ws, nil
}

// meanWindowChars is how many characters a window of n lines holds on
// average over the conversations' files.
func meanWindowChars(convs []*conv, n int) (int, error) {
	total, count := 0, 0
	for _, c := range convs {
		ws, err := readWindows(c.files, n)
		if err != nil {
			return 0, err
		}
		for _, t := range ws.text {
			total += utf8.RuneCountInString(t)
			count++
		}
	}
	if count == 0 {
		return search.SnippetChars, nil
	}
	return total / count, nil
}

// bm25Windows is Okapi BM25 (k1 1.2, b 0.75) of each window for the
// query's stems (stop words out), with the usual positive IDF.
func bm25Windows(ws *windows, query string) []float64 {
	q := textan.QueryTerms(query)
	n := float64(len(ws.text))
	out := make([]float64, len(ws.text))
	for i, st := range ws.stems {
		tf := map[string]float64{}
		for _, x := range st {
			tf[x]++
		}
		norm := 1.2 * (0.25 + 0.75*float64(len(st))/ws.avg)
		for _, x := range q {
			if f := tf[x]; f > 0 {
				df := float64(ws.df[x])
				out[i] += math.Log(1+(n-df+0.5)/(df+0.5)) * f * 2.2 / (f + norm)
			}
		}
	}
	return out
}

// grepWindows counts the query's words (lowercased, not stemmed, stop
// words out) in each window, as a grep for each word would.
func grepWindows(ws *windows, query string) []float64 {
	var q []string
	for _, w := range textan.Words(query) {
		if !textan.IsStopWord(w) {
			q = append(q, w)
		}
	}
	out := make([]float64, len(ws.text))
	for i, words := range ws.words {
		for _, w := range words {
			for _, x := range q {
				if w == x {
					out[i]++
				}
			}
		}
	}
	return out
}

// top is the text of the k best-scoring windows, skipping those that
// overlap one already taken; windows scoring 0 are not results.
func (ws *windows) top(score []float64, k int) []string {
	idx := make([]int, len(score))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return score[idx[a]] > score[idx[b]] })
	var out []string
	var taken []int
	for _, i := range idx {
		if len(out) == k || score[i] <= 0 {
			break
		}
		clash := false
		for _, t := range taken {
			if ws.file[t] == ws.file[i] && ws.from[i] < ws.from[t]+ws.n && ws.from[t] < ws.from[i]+ws.n {
				clash = true
				break
			}
		}
		if !clash {
			taken = append(taken, i)
			out = append(out, ws.text[i])
		}
	}
	return out
}
