package main

// The second benchmark: questions over session memory the project never
// tuned on. Each real Claude Code session of ../shared/fixtures/transcripts
// that ../shared/bench/distill-facts-dev.json describes becomes a dated
// memory file of its dialogue (a line per paragraph of each prompt and
// reply, a line per tool call with its target); each key fact, as the
// sentence a person returning the next day might search with, is a
// question, and it counts as found at k when one of the first k snippets
// holds the fact (every keyword group of it, as the facts file defines
// presence). The same runs over plain BM25 with 12-line windows.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

type factsFile struct {
	Transcripts []struct {
		File  string `json:"file"`
		Facts []struct {
			Fact  string     `json:"fact"`
			AnyOf [][]string `json:"any_of"`
		} `json:"facts"`
	} `json:"transcripts"`
}

type factQ struct {
	question string
	anyOf    [][]string
}

// holds reports whether text holds every group of the fact (one of its
// alternatives, lowercase, runs of whitespace as one space).
func (f factQ) holds(text string) bool {
	t := strings.Join(strings.Fields(strings.ToLower(text)), " ")
	for _, g := range f.anyOf {
		ok := false
		for _, alt := range g {
			if strings.Contains(t, strings.Join(strings.Fields(strings.ToLower(alt)), " ")) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func factRank(snippets []string, f factQ) int {
	for i, s := range snippets {
		if f.holds(s) {
			return i + 1
		}
	}
	return 0
}

// factsResult is what the summary needs of the second benchmark.
type factsResult struct {
	byVariant   []metrics
	bm12        metrics
	n, sessions int
	windowChars int // a 12-line window's mean length
	reachable   int // facts some 12-line window holds whole
}

func runFacts(factsPath, transcripts, work string, variants []func(*search.Options)) (*factsResult, error) {
	raw, err := os.ReadFile(factsPath)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", factsPath, err)
	}
	var ff factsFile
	if err := json.Unmarshal(raw, &ff); err != nil {
		return nil, fmt.Errorf("parse %s: %w", factsPath, err)
	}
	dir := filepath.Join(work, "sessions")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	var qs []factQ
	var last time.Time
	for i, t := range ff.Transcripts {
		text, when, err := sessionLog(filepath.Join(transcripts, t.File))
		if err != nil {
			return nil, err
		}
		if when.After(last) {
			last = when
		}
		p := filepath.Join(dir, fmt.Sprintf("%s session %02d.md", when.Format("2006-01-02"), i+1))
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return nil, err
		}
		files = append(files, p)
		for _, f := range t.Facts {
			qs = append(qs, factQ{f.Fact, f.AnyOf})
		}
	}
	ix, err := search.Open(filepath.Join(work, "facts-index"), search.Root{Dir: dir, Kind: search.KindShort}, search.Params{ChunkTokens: 400, OverlapTokens: 80})
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	if _, err := ix.Update(context.Background(), time.Now(), nil); err != nil {
		return nil, err
	}
	w12, err := readWindows(files, 12)
	if err != nil {
		return nil, err
	}
	res := &factsResult{n: len(qs), sessions: len(files), byVariant: make([]metrics, len(variants))}
	for _, t := range w12.text {
		res.windowChars += utf8.RuneCountInString(t)
	}
	res.windowChars /= max(len(w12.text), 1)
	for qi, q := range qs {
		for _, t := range w12.text {
			if q.holds(t) {
				res.reachable++
				break
			}
		}
		for vi, opt := range variants {
			o := defaults(last.AddDate(0, 0, 1))
			opt(&o)
			t0 := time.Now()
			resp, err := search.Search(context.Background(), []*search.Index{ix}, q.question, o)
			if err != nil {
				return nil, err
			}
			var sn []string
			for _, r := range resp.Results {
				sn = append(sn, r.Snippet)
			}
			r := factRank(sn, q)
			res.byVariant[vi].add(r, time.Since(t0))
			logRank("facts", "sessions", qi, fmt.Sprint(vi), r)
		}
		t0 := time.Now()
		sn := w12.top(bm25Windows(w12, q.question), 10)
		r := factRank(sn, q)
		res.bm12.add(r, time.Since(t0))
		logRank("facts", "sessions", qi, "bm25-12", r)
		if factMisses > 0 && len(variants) > 0 {
			if d := res.byVariant[0].ranks[len(res.byVariant[0].ranks)-1]; d != 1 && (r > 0 && (d == 0 || r < d)) {
				printFactMiss(ix, q, last, d, r, sn, factMisses)
			}
		}
	}
	return res, nil
}

// sessionLog writes a transcript's main dialogue as a daily memory file:
// frontmatter, a heading, then a line per paragraph of each prompt and
// reply and a line per tool call.
func sessionLog(path string) (string, time.Time, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	var b strings.Builder
	var first time.Time
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var body strings.Builder
	for sc.Scan() {
		it, ok := transcript.ParseLine(sc.Bytes())
		if !ok {
			continue
		}
		if first.IsZero() && !it.Time.IsZero() {
			first = it.Time
		}
		for _, para := range strings.Split(it.Text, "\n") {
			if para = strings.TrimSpace(para); para != "" {
				fmt.Fprintf(&body, "- %s: %s\n", it.Role, para)
			}
		}
		for _, t := range it.Tools {
			fmt.Fprintf(&body, "- tool %s: %s\n", t.Name, strings.ReplaceAll(t.Target, "\n", " "))
		}
	}
	if err := sc.Err(); err != nil {
		return "", time.Time{}, fmt.Errorf("read %s: %w", path, err)
	}
	if first.IsZero() {
		first = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	day := first.UTC().Format("2006-01-02")
	fmt.Fprintf(&b, "---\ntype: daily\ndate: %s\n---\n\n# %s\n\n## session · %s\n\n%s", day, day, filepath.Base(path), body.String())
	return b.String(), first, nil
}

// factMisses, when set (-misses), prints each fact the defaults rank
// below plain BM25 over 12-line windows: the fact, both ranks, the
// defaults' first snippets and the window BM25 found it in.
var factMisses int

func printFactMiss(ix *search.Index, q factQ, last time.Time, d, r int, windows []string, n int) {
	o := defaults(last.AddDate(0, 0, 1))
	resp, err := search.Search(context.Background(), []*search.Index{ix}, q.question, o)
	if err != nil {
		return
	}
	fmt.Printf("FACT MISS defaults %d, bm25-12 %d: %s\n", d, r, q.question)
	// the scores say whether the fact lost by a hair (a tie broken the
	// other way) or by a margin
	for i, x := range resp.Results {
		if i >= n && (d == 0 || i+1 != d) {
			continue
		}
		mark := ""
		if i+1 == d {
			mark = " (holds the fact)"
		}
		fmt.Printf("  #%d score %.4f%s %s\n     %s\n", i+1, x.Score, mark, x.Citation, strings.ReplaceAll(x.Snippet, "\n", "\n     "))
	}
	fmt.Printf("  window: %s\n", strings.ReplaceAll(windows[r-1], "\n", "\n     "))
}
