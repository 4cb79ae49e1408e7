// Command desk measures search and recall on a year-scale desk of dozens
// of projects, through the memhook binary as a person runs it.
//
// The desk: the real Claude Code sessions that ../shared/bench's
// distill-facts-dev.json describes, replayed into their projects' daily
// files by the flush's distiller and writer, a session every few weeks of
// the year; -year generated projects with a daily file for every day of
// a year; -month generated projects with a month of them; and -small more
// of 30–250 days, all in words drawn from the real sessions' text, plus
// an empty project the questions are asked from. Every project is
// registered and indexed (`memhook index`) before the first search.
//
// The questions are the facts' sentences; one is found when a result of
// its project shows every group of the fact's words. Printed in one run:
// found top-1 / top-5 of `memhook search --scope projects` asked from the
// empty project, against BM25 over 12-line windows of every memory file
// of the desk and against grep (the files holding every query word, the
// newest first); p50 and p95 of `--scope projects` against `--scope
// project` in a year's project, and of a year's project against a
// month's (the same queries, turn about); peak RSS of every index and
// search run; and the share of projects each search covered.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/registry"
)

func main() {
	shared := flag.String("shared", "../shared", "the shared folder: bench/ and fixtures/")
	year := flag.Int("year", 30, "generated projects with a daily file for every day of a year")
	month := flag.Int("month", 5, "generated projects with a month of daily files")
	small := flag.Int("small", 20, "generated projects of 30–250 days")
	rounds := flag.Int("rounds", 3, "timed rounds of the questions")
	flag.BoolVar(&verbose, "v", false, "print the questions not found first")
	keep := flag.String("keep", "", "build the desk here and keep it (default: a temporary folder, removed)")
	flag.Parse()
	if err := run(*shared, *year, *month, *small, *rounds, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "bench/desk:", err)
		os.Exit(1)
	}
}

var verbose bool

type response struct {
	Results []struct {
		Path    string `json:"path"`
		Project string `json:"project"`
		Snippet string `json:"snippet"`
	} `json:"results"`
	Notes  []string `json:"notes"`
	Across *struct {
		Projects int `json:"projects"`
		Searched int `json:"searched"`
	} `json:"across"`
}

func run(shared string, nYear, nMonth, nSmall, rounds int, keep string) error {
	dir := keep
	if dir == "" {
		d, err := os.MkdirTemp("", "bench-desk-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	work, home, state := filepath.Join(dir, "work"), filepath.Join(dir, "home"), filepath.Join(dir, "state")
	bin := filepath.Join(dir, "memhook")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/memhook").CombinedOutput(); err != nil {
		return fmt.Errorf("build memhook: %v\n%s", err, out)
	}
	env := append(os.Environ(), "CEREBRO_STATE_DIR="+state, "CEREBRO_HOME="+filepath.Join(dir, "desk"), "HOME="+home,
		"CLAUDE_PLUGIN_DATA=")
	first := time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC)
	start := time.Now()
	real, qs, corpus, err := sessionProjects(filepath.Join(shared, "bench", "distill-facts-dev.json"),
		filepath.Join(shared, "fixtures", "transcripts"), work, first)
	if err != nil {
		return err
	}
	qs = pick(qs, 20)
	r := rand.New(rand.NewSource(7))
	vs := vocabs(corpus, nYear+nMonth+nSmall, r)
	var yearRoots, monthRoots, all []string
	all = append(all, real...)
	for i := 0; i < nYear+nMonth+nSmall; i++ {
		var root string
		days := 365
		switch {
		case i < nYear:
			root = filepath.Join(work, fmt.Sprintf("year-%02d", i))
			yearRoots = append(yearRoots, root)
		case i < nYear+nMonth:
			// a month's project in the words of a year's: the same memory,
			// a twelfth of it
			root, days = filepath.Join(work, fmt.Sprintf("month-%02d", i-nYear)), 30
			monthRoots = append(monthRoots, root)
		default:
			root, days = filepath.Join(work, fmt.Sprintf("small-%02d", i)), 30+r.Intn(221)
		}
		v := vs[i]
		if i >= nYear && i < nYear+nMonth {
			v = vs[i-nYear]
		}
		generate(root, home, v, r, first.AddDate(0, 0, 365-days), days)
		all = append(all, root)
	}
	empty := filepath.Join(work, "empty")
	os.MkdirAll(filepath.Join(empty, ".claude", "memory_long"), 0o755)
	all = append(all, empty)
	now := first.AddDate(1, 0, 0)
	reg := filepath.Join(dir, "desk", ".claude", "memory_short", "registry.json")
	for _, root := range all {
		if _, err := registry.Add(reg, root, "", filepath.Join(dir, "desk"), func(d string) (string, error) { return d, nil }, now); err != nil {
			return fmt.Errorf("register %s: %w", root, err)
		}
	}
	rf, err := registry.Read(reg)
	if err != nil {
		return err
	}
	ids := map[string]string{}
	for _, p := range rf.Projects {
		ids[p.ID] = p.Path
	}
	files, bytes := count(work, home)
	fmt.Printf("bench/desk: %d projects (%d with %d real sessions replayed, %d of a year, %d of a month, %d of 30–250 days, 1 empty), %d memory files, %.1f MB; written in %s\n",
		len(all), len(real), 17, nYear, nMonth, nSmall, files, float64(bytes)/1e6, time.Since(start).Round(time.Second))

	peak := 0.0
	memhook := func(cwd string, args ...string) ([]byte, float64, time.Duration, error) {
		cmd := exec.Command("/usr/bin/time", append([]string{"-f", "%M %U %S", bin}, args...)...)
		cmd.Env, cmd.Dir = env, cwd
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		t0 := time.Now()
		err := cmd.Run()
		wall := time.Since(t0)
		lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
		var kb, u, s float64
		fmt.Sscan(lines[len(lines)-1], &kb, &u, &s)
		peak = max(peak, kb/1024)
		if err != nil {
			return nil, 0, wall, fmt.Errorf("memhook %s in %s: %v\n%s", strings.Join(args, " "), cwd, err, errb.String())
		}
		return []byte(out.String()), u + s, wall, nil
	}

	// indexing, before any question: every project's memhook index
	t0 := time.Now()
	var cpu, idxPeak float64
	for _, root := range all {
		before := peak
		peak = 0
		_, c, _, err := memhook(root, "index", "--scope", "project")
		if err != nil {
			return err
		}
		cpu += c
		idxPeak = max(idxPeak, peak)
		peak = max(before, peak)
	}
	fi, _ := os.Stat(filepath.Join(state, "index", "desk.sqlite"))
	var size int64
	if fi != nil {
		size = fi.Size()
	}
	fmt.Printf("index: %d memhook index runs in %s wall, %.1f s CPU, peak RSS %.1f MB; the desk index %.1f MB, %.2f× the text\n\n",
		len(all), time.Since(t0).Round(time.Millisecond), cpu, idxPeak, float64(size)/1e6, float64(size)/float64(bytes))

	// quality: the first search of each question, from the empty project
	var top1, top5, g1, g5, b1, b5 int
	var share []float64
	searchPeak := 0.0
	bm := newBM25(all, home)
	for _, q := range qs {
		peak = 0
		out, _, _, err := memhook(empty, "search", "--scope", "projects", "--json", "--limit", "5", "--", q.text)
		if err != nil {
			return err
		}
		searchPeak = max(searchPeak, peak)
		var resp response
		if err := json.Unmarshal(out, &resp); err != nil {
			return fmt.Errorf("search %q: %w", q.text, err)
		}
		rank := 0
		for i, res := range resp.Results {
			if ids[res.Project] == q.project && q.holds(res.Snippet) {
				rank = i + 1
				break
			}
		}
		if rank != 1 && verbose {
			fmt.Printf("  rank %d (bm25 %d): %q in %s\n", rank, bm.rank(q), q.text, filepath.Base(q.project))
		}
		top1 += b2i(rank == 1)
		top5 += b2i(rank >= 1 && rank <= 5)
		if resp.Across != nil && resp.Across.Projects > 0 {
			share = append(share, float64(resp.Across.Searched)/float64(resp.Across.Projects))
		}
		for _, n := range resp.Notes {
			if strings.Contains(n, "not indexed") || strings.Contains(n, "behind") {
				fmt.Printf("  note for %q: %s\n", q.text, n)
			}
		}
		br := bm.rank(q)
		b1 += b2i(br == 1)
		b5 += b2i(br >= 1 && br <= 5)
		gr := grepRank(bm.files, q)
		g1 += b2i(gr == 1)
		g5 += b2i(gr >= 1 && gr <= 5)
	}
	n := len(qs)
	fmt.Printf("found, %d questions from the replayed sessions, asked from the empty project (top-1 / top-5):\n", n)
	fmt.Printf("  memhook search --scope projects      %2d / %2d   (%.2f / %.2f)\n", top1, top5, frac(top1, n), frac(top5, n))
	fmt.Printf("  BM25 over 12-line windows            %2d / %2d   (%.2f / %.2f)\n", b1, b5, frac(b1, n), frac(b5, n))
	fmt.Printf("  grep (files with every word, newest) %2d / %2d   (%.2f / %.2f)\n", g1, g5, frac(g1, n), frac(g5, n))
	fmt.Printf("  share of projects searched: mean %.3f, least %.3f\n\n", mean(share), least(share))

	// speed: the same questions, turn about
	ask := func(cwd string, scope string) func(q string) (float64, time.Duration, error) {
		return func(q string) (float64, time.Duration, error) {
			peak = 0
			_, c, wall, err := memhook(cwd, "search", "--scope", scope, "--json", "--", q)
			searchPeak = max(searchPeak, peak)
			return c, wall, err
		}
	}
	ways := []struct {
		name string
		fn   func(string) (float64, time.Duration, error)
	}{
		{"--scope projects, from the empty project", ask(empty, "projects")},
		{"--scope project, a year's project", ask(yearRoots[0], "project")},
		{"--scope project, a month's project (the year's words)", ask(monthRoots[0], "project")},
	}
	walls := make([][]float64, len(ways))
	cpus := make([][]float64, len(ways))
	for round := 0; round < rounds; round++ {
		for _, q := range qs {
			for i, w := range ways {
				c, wall, err := w.fn(q.text)
				if err != nil {
					return err
				}
				walls[i] = append(walls[i], float64(wall.Microseconds())/1000)
				cpus[i] = append(cpus[i], c*1000)
			}
		}
	}
	fmt.Printf("speed, %d searches each, turn about (wall p50 / p95, CPU p50):\n", len(walls[0]))
	for i, w := range ways {
		fmt.Printf("  %-55s %7.1f / %7.1f ms, CPU %6.1f ms\n", w.name, pct(walls[i], 50), pct(walls[i], 95), pct(cpus[i], 50))
	}
	fmt.Printf("  ratio --scope projects / one project: p50 %.2f, p95 %.2f\n", pct(walls[0], 50)/pct(walls[1], 50), pct(walls[0], 95)/pct(walls[1], 95))
	fmt.Printf("  ratio a year's project / a month's:   p50 %.2f, p95 %.2f\n", pct(walls[1], 50)/pct(walls[2], 50), pct(walls[1], 95)/pct(walls[2], 95))
	fmt.Printf("peak RSS: index %.1f MB, search %.1f MB\n", idxPeak, searchPeak)
	return sessionStarts(bin, env, yearRoots[0], monthRoots[0], rounds*len(qs))
}

// sessionStarts runs `memhook hook session-start` (a new session each
// time, as Claude Code starts one) in a year's project and a month's,
// turn about, and prints the p50 and p95 of each and their ratio. Each
// start also starts its project's background index (one at a time per
// project); the projects were indexed before, so it only checks.
func sessionStarts(bin string, env []string, year, month string, n int) error {
	start := func(root string, i int) (float64, float64, error) {
		in, _ := json.Marshal(map[string]string{"session_id": fmt.Sprintf("start-%d", i), "cwd": root,
			"hook_event_name": "SessionStart", "source": "startup", "transcript_path": filepath.Join(root, "..", "none.jsonl")})
		cmd := exec.Command(bin, "hook", "session-start")
		cmd.Env, cmd.Dir, cmd.Stdin = env, root, strings.NewReader(string(in))
		var out strings.Builder
		cmd.Stdout = &out
		t0 := time.Now()
		if err := cmd.Run(); err != nil {
			return 0, 0, fmt.Errorf("session-start in %s: %w", root, err)
		}
		wall := float64(time.Since(t0).Microseconds()) / 1000
		if !strings.Contains(out.String(), "additionalContext") {
			return 0, 0, fmt.Errorf("session-start in %s injected nothing: %q", root, out.String())
		}
		cpu := float64((cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Microseconds()) / 1000
		return wall, cpu, nil
	}
	var walls, cpus [2][]float64
	for i := 0; i < n; i++ {
		for k, root := range []string{year, month} {
			w, c, err := start(root, i)
			if err != nil {
				return err
			}
			walls[k], cpus[k] = append(walls[k], w), append(cpus[k], c)
		}
	}
	fmt.Printf("SessionStart through memhook, %d each, turn about (wall p50 / p95, CPU p50):\n", n)
	for k, name := range []string{"a year's project (365 daily files)", "a month's project (30 daily files)"} {
		fmt.Printf("  %-55s %7.1f / %7.1f ms, CPU %6.1f ms\n", name, pct(walls[k], 50), pct(walls[k], 95), pct(cpus[k], 50))
	}
	fmt.Printf("  ratio a year's project / a month's:   p50 %.2f, p95 %.2f, CPU p50 %.2f\n",
		pct(walls[0], 50)/pct(walls[1], 50), pct(walls[0], 95)/pct(walls[1], 95), pct(cpus[0], 50)/pct(cpus[1], 50))
	return nil
}

// pick takes about n questions spread over the facts: those whose every
// group has an alternative of two words or more, or of 8 letters (a
// question on "compact" or "plt" alone names nothing a person asks).
func pick(qs []question, n int) []question {
	var good []question
	for _, q := range qs {
		ok := true
		for _, g := range q.groups {
			long := false
			for _, alt := range g {
				if strings.Contains(alt, " ") || len(alt) >= 8 {
					long = true
				}
			}
			ok = ok && long
		}
		if ok {
			good = append(good, q)
		}
	}
	if len(good) <= n {
		return good
	}
	var out []question
	for i := 0; i < n; i++ {
		out = append(out, good[i*len(good)/n])
	}
	return out
}

func count(dirs ...string) (int, int64) {
	var n int
	var b int64
	for _, d := range dirs {
		filepath.WalkDir(d, func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() && strings.HasSuffix(p, ".md") {
				if fi, err := e.Info(); err == nil {
					n++
					b += fi.Size()
				}
			}
			return nil
		})
	}
	return n, b
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func frac(a, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(a) / float64(n)
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func least(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	m := xs[0]
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}

func pct(xs []float64, p int) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[min(len(s)-1, len(s)*p/100)]
}
