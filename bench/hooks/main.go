// Command hooks measures cerebro's hooks as Claude Code runs them: one
// process per event, memhook-hot for the per-turn hooks and memhook for
// the others. It prints p50/p95 wall time and peak RSS per
// scenario, and the ratios that show hot-path cost does not grow with the
// transcript or the history, next to two floors timed in the same rounds:
// the spawn of `true` and of a hello-world Go binary (what any one static
// Go binary costs). Run it through bench/hooks/run.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/bench/internal/rss"
	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/shortterm"
	"github.com/cerebro-mem/cerebro/internal/shortterm/capture"
	"github.com/cerebro-mem/cerebro/internal/shortterm/distill"
)

var (
	bin      = flag.String("bin", "bin/memhook", "memhook binary to measure")
	hotBin   = flag.String("hot", "bin/memhook-hot", "memhook-hot binary to measure (the per-turn hooks), beside -bin")
	hello    = flag.String("hello", "", "a hello-world Go binary: the floor of any Go process (bench/hooks/hello)")
	shim     = flag.String("shim", "", "scripts/memhook beside a bin/memhook: also time a Stop as hooks.json runs it (sh -c)")
	rssOf    = flag.Bool("rss-of", false, "internal: run the command given after the flags, print its peak RSS in KB on stderr")
	n        = flag.Int("n", 200, "runs per scenario")
	fixtures = flag.String("fixtures", "../shared/fixtures/transcripts", "real transcripts to build test transcripts from")
)

type result struct {
	name     string
	p50, p95 time.Duration
	rssKB    int64
}

func main() {
	flag.Parse()
	if *rssOf {
		os.Exit(runForRSS(flag.Args()))
	}
	work, err := os.MkdirTemp("", "cerebro-bench-")
	check(err)
	defer os.RemoveAll(work)
	proj := filepath.Join(work, "proj")
	check(os.MkdirAll(filepath.Join(proj, ".git"), 0o755))
	env := append(os.Environ(), "CEREBRO_STATE_DIR="+filepath.Join(work, "state"), "CEREBRO_HOME="+filepath.Join(work, "home"),
		"CEREBRO_CONFIG="+filepath.Join(work, "none.toml"),
		// No automatic flush in the hot-path scenarios: the largest values
		// the configuration accepts (out of range, the defaults would apply
		// and Stop would flush every 20 replies).
		"CEREBRO_SHORT_FLUSH_CHARS=1000000", "CEREBRO_SHORT_FLUSH_REPLIES=10000")
	small := makeTranscript(filepath.Join(work, "small.jsonl"), 10<<10)
	big := makeTranscript(filepath.Join(work, "big.jsonl"), 2700<<10)

	input := func(session, event, transcript string, kv ...string) []byte {
		m := map[string]any{"session_id": session, "cwd": proj, "hook_event_name": event, "transcript_path": transcript}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		b, _ := json.Marshal(m)
		return b
	}
	prompt := "Please look at the failing test in internal/session and fix the race you find there."
	reply := strings.Repeat("I fixed the race by taking the session lock before reading the cursor. ", 8)
	// The hot path and its floors run in turns, one run of each per round,
	// so that the ratios hold on a machine whose load changes during the
	// benchmark.
	floors := []*runner{cmdRunner("spawn of `true` (floor)", "true")}
	if *hello != "" {
		floors = append(floors, cmdRunner("hello-world Go binary (floor of a Go process)", *hello))
	}
	// The per-turn hooks run memhook-hot, as scripts/memhook routes them;
	// memhook alone is timed beside it for comparison.
	hot := interleave(*n, append([]*runner{
		hookRunner("baseline: memhook-hot with the nested guard (no work)", *hotBin, append(env, "CEREBRO_NESTED=1"), "stop", input("base", "Stop", small), nil),
		hookRunner("user-prompt-submit, 10 KB transcript", *hotBin, env, "user-prompt-submit", input("small", "UserPromptSubmit", small, "prompt", prompt), nil),
		hookRunner("user-prompt-submit, 2.7 MB transcript", *hotBin, env, "user-prompt-submit", input("big", "UserPromptSubmit", big, "prompt", prompt), nil),
		hookRunner("stop (no flush), 10 KB transcript", *hotBin, env, "stop", input("small", "Stop", small, "last_assistant_message", reply), nil),
		hookRunner("stop (no flush), 2.7 MB transcript", *hotBin, env, "stop", input("big", "Stop", big, "last_assistant_message", reply), nil),
		hookRunner("baseline: memhook with the nested guard (no work)", *bin, append(env, "CEREBRO_NESTED=1"), "stop", input("base", "Stop", small), nil),
		hookRunner("stop (no flush), 10 KB, memhook alone", *bin, env, "stop", input("small2", "Stop", small, "last_assistant_message", reply), nil),
		hookRunner("post-tool-use, a Bash call", *hotBin, env, "post-tool-use", input("small", "PostToolUse", small, "tool_name", "Bash"), nil),
	}, floors...)...)
	base, rs, baseFull, stopFull, post, spawn := hot[0], append([]result(nil), hot[1:5]...), hot[5], hot[6], hot[7], hot[8]
	var helloGo result
	if *hello != "" {
		helloGo = hot[9]
	}
	var viaShim result
	if *shim != "" {
		// Timed apart (its rounds would add load to the others'): beside the
		// same stop measured again, for a difference taken in one series.
		pair := interleave(*n,
			hookRunner("stop (no flush), 10 KB transcript, again", *hotBin, env, "stop", input("small", "Stop", small, "last_assistant_message", reply), nil),
			hookRunner(shimPrefix+"stop, 10 KB", *hotBin, env, "stop", input("small", "Stop", small, "last_assistant_message", reply), nil))
		viaShim = pair[1]
		shimCost = pair[1].p50 - pair[0].p50
	}
	// A turn that appended 5 MB of tool output: Stop scans only what the
	// turn appended, and skips tool output at its type.
	growing := filepath.Join(work, "growing.jsonl")
	check(os.WriteFile(growing, nil, 0o644))
	turn5MB := fiveMBTurn(reply)
	grow := func() {
		f, err := os.OpenFile(growing, os.O_APPEND|os.O_WRONLY, 0o644)
		check(err)
		_, err = f.Write(turn5MB)
		check(err)
		// Synced, so that the kernel's writeback of this untimed write
		// does not stall the hook's own small writes.
		check(f.Sync())
		check(f.Close())
	}
	// Each run appends 10 MB (Claude Code writes tool output twice, in the
	// result and in the message); fewer runs keep the file under 1 GB.
	turnBig := interleave(min(*n, 60), hookRunner("stop, a turn that appended 5 MB of tool output", *hotBin, env, "stop",
		input("grow", "Stop", growing, "last_assistant_message", reply), grow))[0]
	if _, err := os.Stat(filepath.Join(proj, ".claude", "memory_short", "daily")); err == nil {
		check(fmt.Errorf("a hot-path scenario flushed: its figures include a flush"))
	}

	// SessionStart with a full inject, with two daily files and with a
	// year of them.
	dailyDir := filepath.Join(proj, ".claude", "memory_short", "daily")
	today := time.Now()
	body := "### Asked\n- " + prompt + "\n### Done\n- " + reply[:200] + "\n### Files and commands\n- changed: `internal/session/flush.go`\n"
	for d := 0; d < 2; d++ {
		for i := 0; i < 15; i++ {
			t := today.AddDate(0, 0, -d).Add(-time.Duration(i) * 10 * time.Minute)
			_, err := daily.Append(dailyDir, "proj", daily.Section{Start: t, End: t, SessionID: fmt.Sprintf("sess%04d", i), Trigger: "auto", Seq: 1, Body: body})
			check(err)
		}
	}
	rs = append(rs, measure("session-start with inject, 2 daily files", env, "session-start", input("start", "SessionStart", small, "source", "startup")))
	data, err := os.ReadFile(daily.Path(dailyDir, today.AddDate(0, 0, -1)))
	check(err)
	for d := 2; d < 367; d++ {
		check(os.WriteFile(daily.Path(dailyDir, today.AddDate(0, 0, -d)), data, 0o644))
	}
	rs = append(rs, measure("session-start with inject, 366 daily files", env, "session-start", input("start", "SessionStart", small, "source", "startup")))

	flushP50, flushP95 := measureFlush(work, proj, prompt, reply)

	fmt.Printf("%-56s %9s %9s %10s\n", "scenario (one hook process per run)", "p50", "p95", "peak RSS")
	for _, r := range append([]result{base, baseFull, stopFull, post}, rs...) {
		fmt.Printf("%-56s %9s %9s %7d KB\n", r.name, ms(r.p50), ms(r.p95), r.rssKB)
	}
	fmt.Printf("%-56s %9s %9s %10s\n", "extractive flush of a 20-reply segment (in process)", ms(flushP50), ms(flushP95), "-")
	fmt.Println()
	fmt.Printf("ratio user-prompt-submit 2.7 MB / 10 KB: %.2f\n", ratio(rs[1], rs[0]))
	fmt.Printf("ratio stop 2.7 MB / 10 KB:               %.2f\n", ratio(rs[3], rs[2]))
	fmt.Printf("ratio session-start 366 / 2 daily files: %.2f\n", ratio(rs[5], rs[4]))
	fmt.Printf("hook work above process start (p50): user-prompt-submit %s, stop %s, session-start %s\n",
		ms(rs[1].p50-base.p50), ms(rs[3].p50-base.p50), ms(rs[5].p50-base.p50))
	fmt.Printf("%-56s %9s %9s\n", spawn.name, ms(spawn.p50), ms(spawn.p95))
	fmt.Printf("%-56s %9s %9s %7d KB\n", turnBig.name, ms(turnBig.p50), ms(turnBig.p95), turnBig.rssKB)
	fmt.Printf("ratio user-prompt-submit / spawn of true (p50): %.2f (target <= 5)\n", ratio(rs[0], spawn))
	fmt.Printf("ratio stop / spawn of true (p50):               %.2f (target <= 5)\n", ratio(rs[2], spawn))
	fmt.Printf("ratio memhook-hot doing nothing / spawn of true: %.2f (the Go runtime's start and the hot binary's init, under every turn)\n", ratio(base, spawn))
	fmt.Printf("ratio memhook doing nothing / spawn of true:     %.2f (what the per-turn hooks would pay before any work without memhook-hot)\n", ratio(baseFull, spawn))
	fmt.Printf("ratio stop by memhook alone / spawn of true:     %.2f\n", ratio(stopFull, spawn))
	fmt.Printf("ratio post-tool-use / spawn of true (p50):       %.2f (after every edit and command)\n", ratio(post, spawn))
	if *hello != "" {
		fmt.Printf("%-56s %9s %9s\n", helloGo.name, ms(helloGo.p50), ms(helloGo.p95))
		fmt.Printf("ratio hello-world Go binary / spawn of true:     %.2f (the floor for one static Go binary)\n", ratio(helloGo, spawn))
		fmt.Printf("init above a hello-world Go binary (p50): memhook-hot %s, memhook %s\n", ms(base.p50-helloGo.p50), ms(baseFull.p50-helloGo.p50))
	}
	if *shim != "" {
		fmt.Printf("%-56s %9s %9s\n", viaShim.name, ms(viaShim.p50), ms(viaShim.p95))
		fmt.Printf("the shell and scripts/memhook add to a hook (p50): %s; stop as hooks.json runs it / spawn of true: %.2f\n",
			ms(shimCost), float64(rs[2].p50+shimCost)/float64(spawn.p50))
	}
	fmt.Printf("stop after a 5 MB turn, p50: %s (target <= 20 ms)\n", ms(turnBig.p50))
	fmt.Printf("targets: hot path p50 <= 5 ms, session-start <= 20 ms, extractive flush <= 50 ms\n")
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }

func ratio(a, b result) float64 { return float64(a.p50) / float64(b.p50) }

func measure(name string, env []string, event string, stdin []byte) result {
	return interleave(*n, hookRunner(name, *bin, env, event, stdin, nil))[0]
}

// runner is one scenario: a timed run, and a run through the launcher
// that reads the peak RSS (nil for plain commands).
type runner struct {
	name string
	run  func(i int) time.Duration
	rss  func() int64
}

// interleave runs each runner once per round, runs rounds, then reads
// the hooks' peak RSS in rssRuns more rounds.
func interleave(runs int, rs ...*runner) []result {
	times := make([][]time.Duration, len(rs))
	for i := 0; i < runs; i++ {
		for j, r := range rs {
			times[j] = append(times[j], r.run(i))
		}
	}
	out := make([]result, len(rs))
	for j, r := range rs {
		out[j].name = r.name
		out[j].p50, out[j].p95 = quantiles(times[j])
		for k := 0; r.rss != nil && k < rssRuns; k++ {
			out[j].rssKB = max(out[j].rssKB, r.rss())
		}
	}
	return out
}

// cmdRunner times the spawn of a plain command: the floor every hook
// pays.
func cmdRunner(name, prog string) *runner {
	return &runner{name: name, run: func(int) time.Duration {
		start := time.Now()
		check(exec.Command(prog).Run())
		return time.Since(start)
	}}
}

// fiveMBTurn is one turn's worth of transcript: an assistant tool call,
// 5 MB of tool output, an assistant message with text.
func fiveMBTurn(reply string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"type":"assistant","message":{"id":"m-a","role":"assistant","content":[{"type":"tool_use","name":"Bash","input":{"command":"go test ./..."}}]}}`+"\n")
	out := strings.Repeat("ok  \tgithub.com/x/y\t0.01s\n", (5<<20)/24)
	res, _ := json.Marshal(out)
	fmt.Fprintf(&b, `{"type":"user","toolUseResult":{"stdout":%s},"message":{"role":"user","content":[{"type":"tool_result","content":%s}]}}`+"\n", res, res)
	fmt.Fprintf(&b, `{"type":"assistant","message":{"id":"m-b","role":"assistant","content":[{"type":"text","text":%q}]}}`+"\n", reply)
	return b.Bytes()
}

// shimPrefix names the scenarios run through scripts/memhook.
const shimPrefix = "via hooks.json (sh -c scripts/memhook): "

// shimCost is what the shell and scripts/memhook add to a hook (p50).
var shimCost time.Duration

// rssRuns is how many extra runs per scenario go through the launcher
// that reads the peak RSS.
const rssRuns = 5

// hookRunner runs `<binary> hook event` with stdin, after before (if any).
func hookRunner(name, binary string, env []string, event string, stdin []byte, before func()) *runner {
	start := func(launch bool) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
		if before != nil {
			before()
		}
		cmd := exec.Command(binary, "hook", event)
		if strings.HasPrefix(name, shimPrefix) {
			// What Claude Code runs: hooks.json's own command for the
			// event, the plugin root being the shim's.
			cmd = exec.Command("sh", "-c", hookCommand(event))
		}
		if launch {
			self, err := os.Executable()
			check(err)
			cmd = exec.Command(self, "-rss-of", "--", binary, "hook", event)
		}
		cmd.Env = env
		cmd.Stdin = bytes.NewReader(stdin)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		return cmd, &out, &errOut
	}
	return &runner{
		name: name,
		run: func(i int) time.Duration {
			cmd, out, _ := start(false)
			t0 := time.Now()
			check(cmd.Run())
			d := time.Since(t0)
			if event == "session-start" && i == 0 && !bytes.Contains(out.Bytes(), []byte("additionalContext")) {
				check(fmt.Errorf("%s: no inject", name))
			}
			return d
		},
		rss: func() int64 {
			cmd, _, errOut := start(true)
			check(cmd.Run())
			return parseRSS(errOut.String())
		},
	}
}

// runForRSS is the launcher: a fresh, small process that runs the hook and
// reports its peak RSS. Read directly from the benchmark's own child, the
// figure would include the benchmark's memory: Linux starts the child's
// peak at its parent's when the parent (a Go program) spawns it sharing
// its address space until exec.
func runForRSS(args []string) int {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "rss-kb %d\n", rss.PeakKB(cmd.ProcessState))
	return 0
}

func parseRSS(stderr string) int64 {
	var kb int64
	for _, l := range strings.Split(stderr, "\n") {
		if v, ok := strings.CutPrefix(l, "rss-kb "); ok {
			fmt.Sscan(v, &kb)
		}
	}
	return kb
}

// measureFlush times Flush of a segment of 10 turns (20 replies) written
// to a real transcript and journal, each run on a fresh session.
func measureFlush(work, proj, prompt, reply string) (time.Duration, time.Duration) {
	store := capture.Store{Root: filepath.Join(work, "flush-state")}
	var times []time.Duration
	for i := 0; i < *n/4+1; i++ {
		s := store.Session("proj", fmt.Sprintf("f%04d", i))
		tr := filepath.Join(work, fmt.Sprintf("flush-%d.jsonl", i))
		f, err := os.Create(tr)
		check(err)
		now := time.Now()
		for j := 0; j < 10; j++ {
			fmt.Fprintf(f, `{"type":"user","timestamp":%q,"uuid":"u%d","message":{"role":"user","content":%q}}`+"\n", now.Format(time.RFC3339), j, prompt)
			fmt.Fprintf(f, `{"type":"assistant","timestamp":%q,"message":{"id":"m%d","role":"assistant","content":[{"type":"text","text":%q},{"type":"tool_use","name":"Edit","input":{"file_path":"internal/x.go"}}]}}`+"\n", now.Format(time.RFC3339), j, reply)
			_, err := s.Capture(now, "user", prompt, capture.Meta{Project: proj, Transcript: tr})
			check(err)
			_, err = s.Capture(now, "assistant", reply, capture.Meta{Project: proj, Transcript: tr})
			check(err)
		}
		f.Close()
		start := time.Now()
		res, err := shortterm.FlushSession(context.Background(), s, shortterm.FlushOptions{Trigger: "auto", Now: now, MinReplies: 4,
			Distill: func(_ context.Context, seg distill.Segment) string { return distill.Extractive(seg) }})
		check(err)
		times = append(times, time.Since(start))
		if res.File == "" {
			check(fmt.Errorf("flush wrote nothing: %s", res.Skipped))
		}
	}
	return quantiles(times)
}

func quantiles(ts []time.Duration) (time.Duration, time.Duration) {
	sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
	return ts[len(ts)/2], ts[len(ts)*95/100]
}

// makeTranscript concatenates real transcripts (or synthetic lines when
// the fixtures are absent) up to size bytes of whole lines.
func makeTranscript(path string, size int) string {
	var src [][]byte
	files, _ := filepath.Glob(filepath.Join(*fixtures, "*.jsonl"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		check(err)
		src = append(src, bytes.SplitAfter(data, []byte("\n"))...)
	}
	if len(src) == 0 {
		for i := 0; i < 100; i++ {
			src = append(src, []byte(fmt.Sprintf(`{"type":"user","message":{"role":"user","content":"synthetic prompt %d %s"}}`+"\n", i, strings.Repeat("x", 400))))
		}
	}
	var buf bytes.Buffer
	for i := 0; buf.Len() < size; i++ {
		l := src[i%len(src)]
		if buf.Len()+len(l) > size && buf.Len() > 0 {
			break
		}
		buf.Write(l)
	}
	check(os.WriteFile(path, buf.Bytes(), 0o644))
	return path
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// hookCommand returns hooks/hooks.json's command for a hook event (as
// `memhook hook EVENT` names it), with ${CLAUDE_PLUGIN_ROOT} set to the
// plugin laid out around -shim.
func hookCommand(event string) string {
	data, err := os.ReadFile(filepath.Join("hooks", "hooks.json"))
	check(err)
	var file struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string }
		}
	}
	check(json.Unmarshal(data, &file))
	for _, groups := range file.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				if strings.HasSuffix(h.Command, " hook "+event) {
					root := filepath.Dir(filepath.Dir(*shim))
					return strings.ReplaceAll(h.Command, "${CLAUDE_PLUGIN_ROOT}", root)
				}
			}
		}
	}
	check(fmt.Errorf("hooks.json has no command for %s", event))
	return ""
}
