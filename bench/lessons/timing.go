package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/shortterm/lessons"
)

// scenario is one timed process: a command and its stdin, made afresh
// for each run.
type scenario struct {
	name  string
	cmd   []string
	env   []string
	stdin func(i int) []byte
	times []time.Duration
}

// timeHooks times the PreToolUse hook of memhook-hot beside the spawn of
// `true` and today's per-turn hook, one run of each per round, so that
// the ratios hold while the machine's load changes.
func timeHooks(work string) {
	proj := filepath.Join(work, "timed", "proj")
	empty := filepath.Join(work, "timed", "empty")
	for _, d := range []string{proj, empty} {
		check(os.MkdirAll(filepath.Join(d, ".git"), 0o755))
	}
	// A full lessons file: MaxLessons lessons, the bound of what is read.
	check(lessons.Update(proj, func(f *lessons.File) bool {
		for i := range lessons.MaxLessons {
			f.Lessons = append(f.Lessons, lessons.Lesson{Key: fmt.Sprintf("run tool%03d.sh", i), Kind: lessons.KindFix,
				Failed: fmt.Sprintf("./scripts/tool%03d.sh --all", i), Error: "Exit code 1: " + strings.Repeat("no such thing ", 8),
				Worked: fmt.Sprintf("cd scripts && ./tool%03d.sh --all", i), Date: "2026-12-01", Source: ".claude/memory_short/daily/2026-12-01.md"})
		}
		return true
	}))
	env := append(os.Environ(), "CEREBRO_STATE_DIR="+filepath.Join(work, "timed", "state"), "CEREBRO_HOME="+filepath.Join(work, "timed", "home"),
		"CEREBRO_CONFIG="+filepath.Join(work, "none.toml"), "CEREBRO_SHORT_FLUSH_CHARS=1000000", "CEREBRO_SHORT_FLUSH_REPLIES=10000")
	input := func(dir, session, event string, kv map[string]any) []byte {
		m := map[string]any{"session_id": session, "cwd": dir, "hook_event_name": event, "transcript_path": filepath.Join(work, "none.jsonl")}
		for k, v := range kv {
			m[k] = v
		}
		b, _ := json.Marshal(m)
		return b
	}
	bash := func(cmd string) map[string]any {
		return map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": cmd}, "tool_use_id": "toolu_1"}
	}
	fixed := func(b []byte) func(int) []byte { return func(int) []byte { return b } }
	ss := []*scenario{
		{name: "spawn of `true` (floor)", cmd: []string{"true"}, stdin: fixed(nil)},
		{name: "user-prompt-submit (today's per-turn hook)", cmd: []string{*hot, "hook", "user-prompt-submit"}, env: env,
			stdin: fixed(input(proj, "ups", "UserPromptSubmit", map[string]any{"prompt": "fix the failing build"}))},
		{name: "pre-tool-use, a project with no lessons", cmd: []string{*hot, "hook", "pre-tool-use"}, env: env,
			stdin: fixed(input(empty, "p1", "PreToolUse", bash("npm run build")))},
		{name: "pre-tool-use, 200 lessons, no match", cmd: []string{*hot, "hook", "pre-tool-use"}, env: env,
			stdin: fixed(input(proj, "p2", "PreToolUse", bash("npm run build")))},
		{name: "pre-tool-use, 200 lessons, a match (reminder given, record written)", cmd: []string{*hot, "hook", "pre-tool-use"}, env: env,
			stdin: func(i int) []byte {
				return input(proj, fmt.Sprintf("m%d", i), "PreToolUse", bash("./scripts/tool150.sh --all"))
			}},
		{name: "post-tool-use, 200 lessons, no match", cmd: []string{*hot, "hook", "post-tool-use"}, env: env,
			stdin: fixed(input(proj, "p3", "PostToolUse", bash("npm run build")))},
	}
	// One check that the match answers as it should before timing it.
	out, err := run(ss[4], -1)
	check(err)
	if !bytes.Contains(out, []byte("tool150.sh")) {
		check(fmt.Errorf("the matching scenario gave no reminder: %q", out))
	}
	for i := range *n {
		for _, s := range ss {
			start := time.Now()
			if _, err := run(s, i); err != nil {
				check(err)
			}
			s.times = append(s.times, time.Since(start))
		}
	}
	floor := p(ss[0].times, 50)
	fmt.Printf("Hook cost, %d interleaved rounds (p50 ≤ 4.5× `true` is #42's target):\n\n", *n)
	fmt.Println("| what | p50 | p95 | p50 × `true` |")
	fmt.Println("| --- | --- | --- | --- |")
	for _, s := range ss {
		fmt.Printf("| %s | %.2f ms | %.2f ms | %.2f |\n", s.name, ms(p(s.times, 50)), ms(p(s.times, 95)), float64(p(s.times, 50))/float64(floor))
	}
	fmt.Printf("\nA full lessons file (%d lessons) against none: %.2f× at p50; it reads no transcript.\n",
		lessons.MaxLessons, float64(p(ss[3].times, 50))/float64(p(ss[2].times, 50)))
}

func run(s *scenario, i int) ([]byte, error) {
	c := exec.Command(s.cmd[0], s.cmd[1:]...)
	c.Env = s.env
	c.Stdin = bytes.NewReader(s.stdin(i))
	var out bytes.Buffer
	c.Stdout = &out
	err := c.Run()
	return out.Bytes(), err
}

func p(ds []time.Duration, q int) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[(len(s)-1)*q/100]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
