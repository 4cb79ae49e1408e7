package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// cliVsGrep runs, turn about, `memhook search --root dir --json Q` (a
// fresh process each time, as /cerebro:recall runs it: open the index,
// check freshness, search) and `grep -rilF -e w1 -e w2 dir` (the files
// holding any of the words), and prints both p50s, their ratio and the
// largest resident set size of each. The index is built first by
// `memhook index`, from nothing: the cold index time.
func cliVsGrep(work, name, dir string, qs []string) error {
	state, err := os.MkdirTemp(work, "state-")
	if err != nil {
		return err
	}
	env := append(os.Environ(), "CEREBRO_STATE_DIR="+state, "CEREBRO_HOME="+filepath.Join(state, "desk"), "HOME="+state)
	runOne := func(args ...string) (time.Duration, error) {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env, cmd.Dir = env, state
		t0 := time.Now()
		out, err := cmd.CombinedOutput()
		d := time.Since(t0)
		if cmd.ProcessState != nil {
			lastCPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		}
		if err != nil && !(args[0] == "grep" && cmd.ProcessState.ExitCode() == 1) {
			return 0, fmt.Errorf("%s: %w\n%s", strings.Join(args, " "), err, out)
		}
		return d, nil
	}
	// the child's own peak RSS, as /usr/bin/time reports it (a rusage
	// read here would count the fork of this large process)
	peak := func(args ...string) float64 {
		cmd := exec.Command("/usr/bin/time", append([]string{"-f", "%M"}, args...)...)
		cmd.Env, cmd.Dir = env, state
		var errb strings.Builder
		cmd.Stderr = &errb
		cmd.Run()
		lines := strings.Fields(errb.String())
		if len(lines) == 0 {
			return 0
		}
		var kb float64
		fmt.Sscan(lines[len(lines)-1], &kb)
		return kb / 1024
	}
	cold, err := runOne(memhook, "index", "--root", dir)
	if err != nil {
		return err
	}
	coldCPU := lastCPU
	var cli, grep []time.Duration
	var cliArgs, grepArgs []string
	var worst worstCPU
	for _, q := range qs {
		cliArgs = append([]string{memhook, "search", "--root", dir, "--json"}, strings.Fields(q)...)
		d, err := runOne(cliArgs...)
		if err != nil {
			return err
		}
		worst.add(q, lastCPU)
		cli = append(cli, d)
		grepArgs = []string{"grep", "-rilF"}
		for _, w := range strings.Fields(q) {
			grepArgs = append(grepArgs, "-e", w)
		}
		grepArgs = append(grepArgs, dir)
		if d, err = runOne(grepArgs...); err != nil {
			return err
		}
		grep = append(grep, d)
	}
	cliRSS, grepRSS := peak(cliArgs...), peak(grepArgs...)
	fmt.Printf("  CLI on %s: memhook index (cold) %s wall, %s CPU; memhook search p50 %s p95 %s, grep -rilF p50 %s p95 %s -> CLI/grep p50 ratio %.2f; max RSS memhook %.1f MB, grep %.1f MB\n",
		name, ms(cold), ms(coldCPU), ms(pct(cli, 0.5)), ms(pct(cli, 0.95)), ms(pct(grep, 0.5)), ms(pct(grep, 0.95)),
		pct(cli, 0.5).Seconds()/pct(grep, 0.5).Seconds(), cliRSS, grepRSS)
	// the queries of the words most notes hold, where a search's cost
	// would grow with the vault if anything does
	common := commonWords(mdFiles(dir), 3)
	for i := range common {
		q := strings.Join(common[:i+1], " ")
		if _, err := runOne(append([]string{memhook, "search", "--root", dir, "--json"}, common[:i+1]...)...); err != nil {
			return err
		}
		worst.add(q, lastCPU)
	}
	fmt.Printf("  CPU of one memhook search (a process), %d queries and %d of the commonest words %q: max %s (%q), %d over 100 ms\n",
		len(qs), len(common), common, ms(worst.max), worst.query, worst.over)
	return nil
}

// worstCPU keeps the costliest query's CPU.
type worstCPU struct {
	max   time.Duration
	query string
	over  int // queries over 100 ms of CPU
}

func (w *worstCPU) add(q string, cpu time.Duration) {
	if cpu > w.max {
		w.max, w.query = cpu, q
	}
	if cpu > 100*time.Millisecond {
		w.over++
	}
}

// commonWords is the n words (no stop words, which a query drops) in most of the files (a word counted once a
// file), the most common first.
func commonWords(files []string, n int) []string {
	df := map[string]int{}
	for _, f := range files {
		data, _ := os.ReadFile(f)
		seen := map[string]bool{}
		for _, w := range textan.Words(string(data)) {
			if len(w) > 2 && !textan.IsStopWord(w) && !seen[w] {
				seen[w] = true
				df[w]++
			}
		}
	}
	words := make([]string, 0, len(df))
	for w := range df {
		words = append(words, w)
	}
	sort.Slice(words, func(i, j int) bool {
		return df[words[i]] > df[words[j]] || df[words[i]] == df[words[j]] && words[i] < words[j]
	})
	return words[:min(n, len(words))]
}

// grepCount is the baseline: read every file and count query words per line.
func grepCount(files []string, q string) int {
	words := textan.Words(q)
	n := 0
	for _, f := range files {
		data, _ := os.ReadFile(f)
		for _, l := range strings.Split(string(data), "\n") {
			low := strings.ToLower(l)
			for _, w := range words {
				n += strings.Count(low, w)
			}
		}
	}
	return n
}

func mdFiles(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func dirMB(dir string) float64 {
	var n int64
	for _, f := range mdFiles(dir) {
		if fi, err := os.Stat(f); err == nil {
			n += fi.Size()
		}
	}
	return float64(n) / (1 << 20)
}

func pct(l []time.Duration, p float64) time.Duration {
	s := append([]time.Duration(nil), l...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[int(p*float64(len(s)-1))]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
