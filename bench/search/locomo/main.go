// Command locomo measures memory search recall on the LoCoMo development
// split (../shared/bench/locomo-dev.json): each session becomes a dated
// daily file, one line per turn carrying its dia_id; every question of
// categories 1–4 is searched, and a question counts as recalled at k when
// a line with one of its evidence dia_ids lies inside one of the top k
// snippets. Each setting runs with and without reading dates in the
// questions ("now" being the day after the last session), and the
// questions naming a date are reported apart. A grep-style baseline
// (query-word counts over windows of lines as long as a snippet) runs
// over the same files in the same run.
//
// The defaults and plain BM25 over 12-line windows are also reported on
// two halves of the questions (each conversation's even- and
// odd-numbered ones): a ranking change is worth keeping only when it
// helps on both, not when it wins a few questions of one. -misses N
// prints each question the defaults miss at 5, with its evidence lines
// and the first N snippets returned, to read what a rule should fix.
//
// The lexical reach (reach.go) sorts the questions by whether an evidence
// line, or only a turn next to it, or neither, shares a content word with
// the question, and gives the defaults' and BM25's recall in each class:
// how much of what is missed a word-matching rule could still find.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

type turn struct {
	Speaker     string `json:"speaker"`
	DiaID       string `json:"dia_id"`
	Text        string `json:"text"`
	BlipCaption string `json:"blip_caption"`
}

type qa struct {
	Question string   `json:"question"`
	Evidence []string `json:"evidence"`
	Category int      `json:"category"`
}

type sample struct {
	ID           string                     `json:"sample_id"`
	Conversation map[string]json.RawMessage `json:"conversation"`
	QA           []qa                       `json:"qa"`
}

func main() {
	def := config.Default().Search
	data := flag.String("data", "../shared/bench/locomo-dev.json", "LoCoMo JSON")
	chunk := flag.Int("chunk", def.ChunkTokens, "chunk tokens")
	overlap := flag.Int("overlap", def.OverlapTokens, "overlap tokens")
	misses := flag.Int("misses", 0, "print the defaults' misses at 5 (question, evidence lines, the first N snippets)")
	facts := flag.String("facts", "../shared/bench/distill-facts-dev.json", "key facts of real sessions, the second benchmark (empty: skip it)")
	transcripts := flag.String("transcripts", "../shared/fixtures/transcripts", "the sessions the facts describe")
	ranks := flag.String("ranks", "", "write each question's rank under each method to this file (tab-separated: set, conversation, question, method, rank)")
	only := flag.String("variants", "", "run only the variants whose name matches this regexp (the defaults always run)")
	flag.Parse()
	factMisses = *misses
	if *ranks != "" {
		f, err := os.Create(*ranks)
		if err != nil {
			fmt.Fprintln(os.Stderr, "locomo:", err)
			os.Exit(1)
		}
		defer f.Close()
		rankLog = f
	}
	if err := run(*data, *chunk, *overlap, *misses, *facts, *transcripts, *only); err != nil {
		fmt.Fprintln(os.Stderr, "locomo:", err)
		os.Exit(1)
	}
}

type conv struct {
	dir   string
	files []string
	last  time.Time
	qs    []qa
	// speakers' names, in lowercase words
	speakers map[string]bool
}

func run(dataPath string, chunk, overlap, misses int, factsPath, transcripts, only string) error {
	raw, err := os.ReadFile(dataPath)
	if err != nil {
		return fmt.Errorf("read %s: %w (see ../shared/bench/README.md)", dataPath, err)
	}
	var samples []sample
	if err := json.Unmarshal(raw, &samples); err != nil {
		return fmt.Errorf("parse %s: %w", dataPath, err)
	}
	work, err := os.MkdirTemp("", "cerebro-locomo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	var convs []*conv
	nq := 0
	for _, s := range samples {
		c, err := writeSessions(filepath.Join(work, s.ID), s)
		if err != nil {
			return err
		}
		for _, q := range s.QA {
			if q.Category >= 1 && q.Category <= 4 {
				c.qs = append(c.qs, q)
			}
		}
		nq += len(c.qs)
		convs = append(convs, c)
	}
	fmt.Printf("LoCoMo dev: %d conversations, %d questions (categories 1-4), chunks %d/%d tokens\n\n", len(samples), nq, chunk, overlap)

	type variant struct {
		name string
		opt  func(o *search.Options)
	}
	noDates := func(o *search.Options) { o.DateBoost = -1 }
	variants := []variant{
		{"cerebro, defaults (recency 30 d over 0.9, dates, no MMR)", func(o *search.Options) {}},
		{"cerebro, defaults, dates off", noDates},
		{"cerebro, recency without a floor (old default)", func(o *search.Options) { o.RecencyFloor = -1 }},
		{"cerebro, decay off", func(o *search.Options) { o.HalfLifeDays = 0 }},
		{"cerebro, decay off, dates off", func(o *search.Options) { o.HalfLifeDays = 0; noDates(o) }},
		{"cerebro, defaults, MMR on", func(o *search.Options) { o.MMR = true }},
		{"cerebro, defaults, candidate pool 100", func(o *search.Options) { o.CandidatePool = 100 }},
		{"cerebro, defaults, candidate pool 25", func(o *search.Options) { o.CandidatePool = 25 }},
	}
	// The 12-line windows of the BM25 baseline show more text than a
	// snippet does; the same search with snippets as long as those
	// windows on average compares like with like.
	shown, err := meanWindowChars(convs, 12)
	if err != nil {
		return err
	}
	variants = append(variants, variant{fmt.Sprintf("cerebro, defaults, snippets of %d chars", shown),
		func(o *search.Options) { o.SnippetChars = shown }})
	if only != "" {
		re, err := regexp.Compile(only)
		if err != nil {
			return fmt.Errorf("-variants: %w", err)
		}
		kept := variants[:1]
		for _, v := range variants[1:] {
			if re.MatchString(v.name) {
				kept = append(kept, v)
			}
		}
		variants = kept
	}
	const headline = 0 // the defaults: the by-category breakdown
	reach, err := lexicalReach(convs)
	if err != nil {
		return err
	}
	var idxs []*search.Index
	start := time.Now()
	for ci, c := range convs {
		// each conversation is one person's memory: its own desk index,
		// scored with its own statistics
		idxDir := filepath.Join(work, "index", strconv.Itoa(ci))
		ix, err := search.Open(idxDir, search.Root{Dir: c.dir, Kind: search.KindShort}, search.Params{ChunkTokens: chunk, OverlapTokens: overlap})
		if err != nil {
			return err
		}
		defer ix.Close()
		if _, err := ix.Update(context.Background(), time.Now(), nil); err != nil {
			return err
		}
		idxs = append(idxs, ix)
	}
	fmt.Printf("indexed %d conversations in %s\n\n", len(convs), time.Since(start).Round(time.Millisecond))
	fmt.Printf("%-46s %6s %6s %6s %6s %8s %8s\n", "method", "R@1", "R@5", "R@10", "MRR", "p50", "p95")
	var base5 float64
	var rows, datedRows []string
	byCat := map[int]*metrics{1: {}, 2: {}, 3: {}, 4: {}}
	byConv := make([]metrics, len(convs))
	var byHalf [2]metrics
	halves := make([][2]metrics, len(variants))
	nDated := 0
	for vi, v := range variants {
		var m, dated metrics
		for ci, c := range convs {
			for qi, q := range c.qs {
				// "now" is the day after the last session, so that "last
				// year" or "in June" resolve as they would the day after
				o := defaults(c.last.AddDate(0, 0, 1))
				namesDate := len(search.ParseDates(q.Question, o.Now).Ranges) > 0
				v.opt(&o)
				t0 := time.Now()
				resp, err := search.Search(context.Background(), idxs[ci:ci+1], q.Question, o)
				el := time.Since(t0)
				if err != nil {
					return err
				}
				var snippets []string
				for _, r := range resp.Results {
					snippets = append(snippets, r.Snippet)
				}
				r := rank(snippets, q.Evidence)
				m.add(r, el)
				logRank("dev", filepath.Base(c.dir), qi, v.name, r)
				halves[vi][qi%2].add(r, el)
				if namesDate {
					dated.add(r, el)
				}
				if vi == headline {
					byCat[q.Category].add(r, el)
					byConv[ci].add(r, el)
					byHalf[qi%2].add(r, el)
					reach.ranks[reach.class[ci][qi]].add(r, el)
					if misses > 0 && (r == 0 || r > 5) {
						printMiss(c, q, r, reach.class[ci][qi], snippets, misses)
					}
				}
			}
		}
		rows = append(rows, m.row(v.name))
		datedRows = append(datedRows, dated.row(v.name))
		nDated = len(dated.ranks)
		if vi == headline {
			base5 = m.recall(5)
		}
	}
	var g metrics
	for _, c := range convs {
		for _, q := range c.qs {
			t0 := time.Now()
			snippets, err := grepSearch(c.files, q.Question, 10)
			el := time.Since(t0)
			if err != nil {
				return err
			}
			g.add(rank(snippets, q.Evidence), el)
		}
	}
	bm12, bm5, g12 := &metrics{}, &metrics{}, &metrics{}
	bm12conv := make([]metrics, len(convs))
	var bm12half [2]metrics
	for ci, c := range convs {
		w12, err := readWindows(c.files, 12)
		if err != nil {
			return err
		}
		w5, err := readWindows(c.files, 5)
		if err != nil {
			return err
		}
		for qi, q := range c.qs {
			for _, b := range []struct {
				m     *metrics
				ws    *windows
				score func(*windows, string) []float64
			}{{bm12, w12, bm25Windows}, {bm5, w5, bm25Windows}, {g12, w12, grepWindows}} {
				t0 := time.Now()
				snippets := b.ws.top(b.score(b.ws, q.Question), 10)
				r, el := rank(snippets, q.Evidence), time.Since(t0)
				b.m.add(r, el)
				if b.m == bm12 {
					logRank("dev", filepath.Base(c.dir), qi, "bm25-12", r)
					bm12conv[ci].add(r, el)
					bm12half[qi%2].add(r, el)
					reach.bm12[reach.class[ci][qi]].add(r, el)
				}
			}
		}
	}
	for _, r := range rows {
		fmt.Println(r)
	}
	fmt.Println(bm12.row("plain BM25, 12-line windows (stems)"))
	fmt.Println(bm5.row("plain BM25, 5-line windows (stems)"))
	fmt.Println(g12.row("grep-like word count, 12-line windows"))
	fmt.Println(g.row("grep baseline (word counts, 700-char windows)"))
	fmt.Printf("\nquestions naming a date or day range (%d of %d):\n", nDated, nq)
	for _, r := range datedRows {
		fmt.Println(r)
	}
	fmt.Printf("\nby category (cerebro, defaults):\n")
	for c := 1; c <= 4; c++ {
		fmt.Println(byCat[c].row(fmt.Sprintf("  category %d (%d questions)", c, len(byCat[c].ranks))))
	}
	fmt.Printf("\nby conversation (cerebro, defaults), each with plain BM25 over 12-line windows:\n")
	for ci, c := range convs {
		fmt.Println(byConv[ci].row(fmt.Sprintf("  %s (%d questions)", filepath.Base(c.dir), len(c.qs))))
		fmt.Println(bm12conv[ci].row("    plain BM25, 12-line windows"))
	}
	fmt.Printf("\nby half (each conversation's questions alternately; cerebro, defaults), each with plain BM25 over 12-line windows:\n")
	for h, name := range []string{"even", "odd"} {
		fmt.Println(byHalf[h].row(fmt.Sprintf("  %s-numbered questions (%d)", name, len(byHalf[h].ranks))))
		fmt.Println(bm12half[h].row("    plain BM25, 12-line windows"))
	}
	fmt.Printf("\nrecall@5 cerebro (defaults) − plain BM25 over 12-line windows: %.3f − %.3f = %+.3f\n", base5, bm12.recall(5), base5-bm12.recall(5))
	reach.print()
	fmt.Printf("recall@5 cerebro (defaults) / grep: %.2f / %.2f = %.2fx\n", base5, g.recall(5), base5/math.Max(g.recall(5), 1e-9))
	if factsPath == "" {
		return nil
	}
	var opts []func(*search.Options)
	for _, v := range variants {
		opts = append(opts, v.opt)
	}
	fr, err := runFacts(factsPath, transcripts, work, opts)
	if err != nil {
		return err
	}
	fmt.Printf("\nsecond benchmark: %d key facts of %d real sessions (distill-facts-dev.json), the fact as the query, found when a snippet holds it (%d fit in some 12-line window):\n",
		fr.n, fr.sessions, fr.reachable)
	fmt.Println(fr.byVariant[headline].row("  cerebro, defaults"))
	fmt.Println(fr.bm12.row(fmt.Sprintf("  plain BM25, 12-line windows (%d chars)", fr.windowChars)))
	// The rule a ranking component is kept by: it must help on each half
	// of the dev split and on the second benchmark; the defaults must not
	// fall below plain BM25 over 12-line windows on any of them.
	fmt.Printf("\nthe rule (R@5 / MRR; each variant against plain BM25 over 12-line windows on the same questions):\n")
	fmt.Printf("%-46s %15s %15s %15s\n", "", "dev even", "dev odd", "second")
	cell := func(m *metrics) string { return fmt.Sprintf("%.3f / %.3f", m.recall(5), m.mrr()) }
	fmt.Printf("%-46s %15s %15s %15s\n", "plain BM25, 12-line windows", cell(&bm12half[0]), cell(&bm12half[1]), cell(&fr.bm12))
	for vi, v := range variants {
		fmt.Printf("%-46s %15s %15s %15s\n", v.name, cell(&halves[vi][0]), cell(&halves[vi][1]), cell(&fr.byVariant[vi]))
	}
	fmt.Printf("\ndefaults against plain BM25 over 12-line windows (R@5, MRR; ≥ on each: yes/no):\n")
	check := func(name string, a, b *metrics) {
		ok := "yes"
		if a.recall(5) < b.recall(5) || a.mrr() < b.mrr() {
			ok = "no"
		}
		fmt.Printf("  %-40s %+.3f %+.3f  %s\n", name, a.recall(5)-b.recall(5), a.mrr()-b.mrr(), ok)
	}
	check("dev even half", &halves[headline][0], &bm12half[0])
	check("dev odd half", &halves[headline][1], &bm12half[1])
	for ci, c := range convs {
		check(filepath.Base(c.dir), &byConv[ci], &bm12conv[ci])
	}
	check("second benchmark (session facts)", &fr.byVariant[headline], &fr.bm12)
	return nil
}

// rankLog, when set (-ranks), hears every question's rank per method.
var rankLog io.Writer

func logRank(set, conv string, q int, method string, r int) {
	if rankLog != nil {
		fmt.Fprintf(rankLog, "%s\t%s\t%d\t%s\t%d\n", set, conv, q, method, r)
	}
}

// printMiss shows a question the defaults missed at 5: its evidence
// lines, the rank they came at, and the first n snippets returned.
func printMiss(c *conv, q qa, r int, cl reachClass, snippets []string, n int) {
	fmt.Printf("MISS [%s] cat %d rank %d, %s: %s\n", filepath.Base(c.dir), q.Category, r, cl, q.Question)
	for _, e := range q.Evidence {
		for _, id := range strings.FieldsFunc(e, func(r rune) bool { return r == ';' || r == ',' || r == ' ' }) {
			fmt.Printf("  evidence %s\n", evidenceLine(c, id))
		}
	}
	for i, s := range snippets[:min(n, len(snippets))] {
		fmt.Printf("  #%d %s\n", i+1, strings.ReplaceAll(s, "\n", "\n     "))
	}
}

// evidenceLine is the line of the conversation's files carrying dia_id id.
func evidenceLine(c *conv, id string) string {
	for _, f := range c.files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(data), "\n") {
			if strings.Contains(l, "["+id+"]") {
				return filepath.Base(f) + ": " + l
			}
		}
	}
	return id + " (not found)"
}

// defaults are the search options a user gets (config.Default), with
// now the day after the conversation's last session.
func defaults(now time.Time) search.Options {
	c := config.Default().Search
	return search.Options{
		Limit: 10, CandidatePool: c.CandidatePool, HalfLifeDays: c.HalfLifeDays, RecencyFloor: c.RecencyFloor,
		MMR: c.MMR, MMRLambda: c.MMRLambda, VectorWeight: c.VectorWeight, TextWeight: c.TextWeight,
		DateBoost: c.DateBoost, Now: now,
	}
}

var dateRe = regexp.MustCompile(`^\s*(\d{1,2}):(\d{2})\s*(am|pm) on (\d{1,2}) (\w+), (\d{4})$`)

func sessionTime(s string) (time.Time, error) {
	m := dateRe.FindStringSubmatch(s)
	if m == nil {
		return time.Time{}, fmt.Errorf("session date %q", s)
	}
	return time.Parse("3:04 pm 2 January 2006", fmt.Sprintf("%s:%s %s %s %s %s", m[1], m[2], m[3], m[4], m[5], m[6]))
}

// writeSessions writes each session as a daily file in the daily format.
func writeSessions(dir string, s sample) (*conv, error) {
	c := &conv{dir: dir, speakers: map[string]bool{}}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for n := 1; ; n++ {
		key := "session_" + strconv.Itoa(n)
		rawTurns, ok := s.Conversation[key]
		if !ok {
			break
		}
		var when string
		json.Unmarshal(s.Conversation[key+"_date_time"], &when)
		t, err := sessionTime(when)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", s.ID, key, err)
		}
		var turns []turn
		if err := json.Unmarshal(rawTurns, &turns); err != nil {
			return nil, fmt.Errorf("%s %s: %w", s.ID, key, err)
		}
		if t.After(c.last) {
			c.last = t
		}
		day := t.Format("2006-01-02")
		var b strings.Builder
		fmt.Fprintf(&b, "---\ntype: daily\ndate: %s\nproject: %s\n---\n\n# %s\n\n## %s · session %d · manual\n\n", day, s.ID, day, t.Format("15:04"), n)
		for _, tr := range turns {
			text := strings.ReplaceAll(tr.Text, "\n", " ")
			if tr.BlipCaption != "" {
				text += " [shared an image: " + tr.BlipCaption + "]"
			}
			fmt.Fprintf(&b, "- [%s] %s: %s\n", tr.DiaID, tr.Speaker, text)
			for _, w := range textan.Words(tr.Speaker) {
				c.speakers[w] = true
			}
		}
		name := day + ".md"
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			name = fmt.Sprintf("%s session %d.md", day, n)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			return nil, err
		}
		c.files = append(c.files, p)
	}
	return c, nil
}

// rank is the 1-based rank of the first snippet holding an evidence line,
// 0 when none of them does.
func rank(snippets []string, evidence []string) int {
	var ids []string
	for _, e := range evidence {
		for _, id := range strings.FieldsFunc(e, func(r rune) bool { return r == ';' || r == ',' || r == ' ' }) {
			ids = append(ids, "["+id+"]")
		}
	}
	for i, s := range snippets {
		for _, id := range ids {
			if strings.Contains(s, id) {
				return i + 1
			}
		}
	}
	return 0
}

type metrics struct {
	ranks []int
	lat   []time.Duration
}

func (m *metrics) add(r int, d time.Duration) { m.ranks = append(m.ranks, r); m.lat = append(m.lat, d) }

func (m *metrics) recall(k int) float64 {
	n := 0
	for _, r := range m.ranks {
		if r > 0 && r <= k {
			n++
		}
	}
	return float64(n) / float64(len(m.ranks))
}

func (m *metrics) mrr() float64 {
	var mrr float64
	for _, r := range m.ranks {
		if r > 0 {
			mrr += 1 / float64(r)
		}
	}
	return mrr / math.Max(float64(len(m.ranks)), 1)
}

func (m *metrics) row(name string) string {
	mrr := m.mrr()
	l := append([]time.Duration(nil), m.lat...)
	sort.Slice(l, func(i, j int) bool { return l[i] < l[j] })
	pct := func(p float64) string {
		return fmt.Sprintf("%.2fms", float64(l[int(p*float64(len(l)-1))].Microseconds())/1000)
	}
	return fmt.Sprintf("%-46s %6.3f %6.3f %6.3f %6.3f %8s %8s", name, m.recall(1), m.recall(5), m.recall(10), mrr, pct(0.5), pct(0.95))
}
