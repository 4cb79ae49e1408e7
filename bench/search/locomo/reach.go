package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// What no word-matching ranker can find: questions none of whose
// evidence lines shares a content word with the question, the two
// speakers' names aside (one of them is in nearly every line, as speaker
// or as the one spoken to, so it tells no turn from another). Such an
// evidence line can only come up inside a passage found by the lines
// around it, or by chance; the share of these questions bounds how far a
// lexical ranker can go on this split, whatever its rules.

type reach struct {
	byCat      map[int][2]int // category → {unreachable by the line itself, nor by its neighbours}, counted
	line, near int
	total      int
	// class[conversation][question]: by the evidence line's own words,
	// only by its neighbours', or by neither
	class [][]reachClass
	// the defaults' ranks in each class, and plain BM25's over 12-line windows
	ranks, bm12 [3]metrics
}

type reachClass int

const (
	byLine reachClass = iota
	byNeighbour
	byNeither
)

func (c reachClass) String() string {
	return [...]string{"evidence holds a question word", "only a neighbouring turn holds one", "no question word near the evidence"}[c]
}

// lexicalReach counts, for every question of convs, whether an evidence
// line, or the line before or after one, holds a content word of the
// question.
func lexicalReach(convs []*conv) (reach, error) {
	r := reach{byCat: map[int][2]int{}}
	for _, c := range convs {
		classes := make([]reachClass, 0, len(c.qs))
		lines := map[string][]string{} // dia_id → the line before, the line, the line after
		for _, f := range c.files {
			data, err := os.ReadFile(f)
			if err != nil {
				return r, err
			}
			ls := strings.Split(string(data), "\n")
			for i, l := range ls {
				id, text, ok := turnLine(l)
				if !ok {
					continue
				}
				var before, after string
				if i > 0 {
					_, before, _ = turnLine(ls[i-1])
				}
				if i+1 < len(ls) {
					_, after, _ = turnLine(ls[i+1])
				}
				lines[id] = []string{before, text, after}
			}
		}
		names := c.speakers
		for _, q := range c.qs {
			want := map[string]bool{}
			for _, t := range textan.Terms(q.Question, names) {
				want[t] = true
			}
			holds := func(text string) bool {
				for _, t := range textan.Terms(text, names) {
					if want[t] {
						return true
					}
				}
				return false
			}
			inLine, inNear := false, false
			for _, e := range q.Evidence {
				for _, id := range strings.FieldsFunc(e, func(r rune) bool { return r == ';' || r == ',' || r == ' ' }) {
					ctx, ok := lines[id]
					if !ok {
						continue
					}
					inLine = inLine || holds(ctx[1])
					inNear = inNear || holds(ctx[0]) || holds(ctx[1]) || holds(ctx[2])
				}
			}
			r.total++
			n := r.byCat[q.Category]
			cl := byLine
			if !inLine {
				r.line++
				n[0]++
				cl = byNeighbour
			}
			if !inNear {
				r.near++
				n[1]++
				cl = byNeither
			}
			r.byCat[q.Category] = n
			classes = append(classes, cl)
		}
		r.class = append(r.class, classes)
	}
	return r, nil
}

// turnLine splits a daily file's turn line "- [D1:3] Name: text" into its
// dia_id and its text without the speaker.
func turnLine(l string) (id, text string, ok bool) {
	rest, ok := strings.CutPrefix(l, "- [")
	if !ok {
		return "", "", false
	}
	id, rest, ok = strings.Cut(rest, "] ")
	if !ok {
		return "", "", false
	}
	if _, t, found := strings.Cut(rest, ": "); found {
		rest = t
	}
	return id, rest, true
}

func (r reach) print() {
	fmt.Printf("\nlexical reach: questions whose evidence lines share no content word with the question (speakers' names aside):\n")
	fmt.Printf("  %d of %d (%.3f); with the turn before and after each evidence line too: %d (%.3f)\n",
		r.line, r.total, float64(r.line)/float64(r.total), r.near, float64(r.near)/float64(r.total))
	for c := 1; c <= 4; c++ {
		fmt.Printf("  category %d: %d / %d\n", c, r.byCat[c][0], r.byCat[c][1])
	}
	for cl := byLine; cl <= byNeither; cl++ {
		fmt.Printf("  %s (%d):\n", cl, len(r.ranks[cl].ranks))
		fmt.Println(r.ranks[cl].row("    cerebro, defaults"))
		fmt.Println(r.bm12[cl].row("    plain BM25, 12-line windows"))
	}
	fmt.Printf("  a ranker that finds an evidence line by its own words reaches at most %.3f at any k, by its own or a neighbouring turn's %.3f (chance aside)\n",
		1-float64(r.line)/float64(r.total), 1-float64(r.near)/float64(r.total))
}
