// Command lessons measures the reminders of package lessons on projects
// replayed in their sessions' order: the dev fixtures' multi-session
// projects and synthetic ones written in the line format of real 2.1
// transcripts. Lessons are learnt as the flush learns them (every 20
// replies and at the session's end) from the sessions before, and the
// reminders measured on the calls after: a call never meets a lesson
// learnt from itself. It counts repeats (a call whose intent failed
// before, in an earlier session or earlier in this one), the repeats that
// got their lesson before or right after they ran, reminders per 100
// tool calls, reminders whose fix then failed (wrong advice), and beside
// them two baselines: no reminder at the moment of action (memory at
// SessionStart only) and a naive one that reminds of any earlier failure
// of the same program. Then it times the PreToolUse hook in memhook-hot
// against the spawn of `true` and today's per-turn hook, in interleaved
// rounds. Run it through bench/lessons/run.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/shortterm"
	"github.com/cerebro-mem/cerebro/internal/shortterm/distill"
	"github.com/cerebro-mem/cerebro/internal/shortterm/lessons"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

var (
	fixtures = flag.String("fixtures", "../shared/fixtures/transcripts", "real transcripts, named owner__repo__…__<session>.jsonl")
	hot      = flag.String("hot", "", "memhook-hot binary to time (empty: no timing)")
	n        = flag.Int("n", 200, "runs per timed scenario")
	synth    = flag.Int("synthetic", 4, "synthetic projects")
	sessions = flag.Int("sessions", 8, "sessions per synthetic project")
	explain  = flag.Bool("explain", false, "print each repeat that got no reminder and each reminder before a call that then worked, on stderr")
	calls    = flag.Int("calls", 120, "tool calls per synthetic session")
)

// tally is what one replay counted.
type tally struct {
	projects, sessions, calls  int
	repeats, helped            int // repeats; those that got their lesson before or right after
	worked                     int // failures of a form that later worked as it was (the work going on): not repeats
	reminders, wrong           int // reminders given; those whose fix then failed
	firstSessionReminders      int // reminders in a project's first session (no memory yet)
	needless                   int // reminders before a call that then succeeded
	noMemory                   int // reminders when the replay learns nothing
	naiveReminders, naiveRight int // the baseline that reminds of any earlier failure of the program
}

func (t *tally) add(o tally) {
	t.projects += o.projects
	t.sessions += o.sessions
	t.calls += o.calls
	t.repeats += o.repeats
	t.helped += o.helped
	t.worked += o.worked
	t.reminders += o.reminders
	t.wrong += o.wrong
	t.firstSessionReminders += o.firstSessionReminders
	t.needless += o.needless
	t.noMemory += o.noMemory
	t.naiveReminders += o.naiveReminders
	t.naiveRight += o.naiveRight
}

func main() {
	flag.Parse()
	work, err := os.MkdirTemp("", "cerebro-bench-lessons-")
	check(err)
	defer os.RemoveAll(work)
	safefs.SetRoots(work)

	real := realProjects(*fixtures)
	var realT tally
	for _, name := range sortedKeys(real) {
		realT.add(replay(filepath.Join(work, "real", name), real[name]))
	}
	var synT tally
	for i := range *synth {
		dir := filepath.Join(work, "synth", fmt.Sprint(i))
		check(os.MkdirAll(dir, 0o755))
		synT.add(replay(filepath.Join(work, "synth-proj", fmt.Sprint(i)), synthProject(dir, *sessions, *calls, uint64(i+1))))
	}
	fmt.Println("Reminders at the moment of action, replayed in session order (lessons learnt at flush from the sessions before):")
	fmt.Println()
	fmt.Println("| set | projects | sessions | tool calls | repeats | got the right reminder | reminders / 100 calls | before a call that then worked | wrong advice | with no memory |")
	fmt.Println("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
	row("dev fixtures (multi-session projects)", realT)
	row("synthetic projects (2.1 line format)", synT)
	var all tally
	all.add(realT)
	all.add(synT)
	row("all", all)
	fmt.Println()
	fmt.Printf("Not counted as repeats: %d failures of a command that later worked as it was, in the same session (the work going on).\n", all.worked)
	fmt.Println()
	fmt.Println("Baselines on the same calls (all sets):")
	fmt.Printf("- memory at SessionStart only (no reminder at the moment of action): 0 of %d repeats reminded, 0.00 reminders / 100 calls\n", all.repeats)
	fmt.Printf("- naive: remind of any earlier failure of the same program: %s of repeats, %.2f reminders / 100 calls\n",
		share(all.naiveRight, all.repeats), per100(all.naiveReminders, all.calls))
	fmt.Println()
	fmt.Printf("Targets (#42): ≥ 0.80 of repeats reminded: %s; ≤ 2 reminders / 100 calls: %.2f; 0 wrong advice: %d; 0 reminders without memory: %d\n",
		share(all.helped, all.repeats), per100(all.reminders, all.calls), all.wrong, all.noMemory)
	if *hot != "" {
		fmt.Println()
		timeHooks(work)
	}
}

func row(name string, t tally) {
	fmt.Printf("| %s | %d | %d | %d | %d | %d (%s) | %.2f | %d | %d | %d |\n", name, t.projects, t.sessions, t.calls, t.repeats, t.helped,
		share(t.helped, t.repeats), per100(t.reminders, t.calls), t.needless, t.wrong, t.noMemory)
}

func share(a, b int) string {
	if b == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

func per100(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// realProjects groups the fixtures' main transcripts by project, those of
// a project with more than one session only, each in the order its
// sessions began.
func realProjects(dir string) map[string][]string {
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	by := map[string][]string{}
	for _, f := range files {
		base := filepath.Base(f)
		if strings.Contains(base, "__agent-") || strings.Contains(base, "__subagents__") {
			continue
		}
		parts := strings.Split(base, "__")
		if len(parts) < 3 {
			continue
		}
		key := strings.Join(parts[:len(parts)-1], "__")
		by[key] = append(by[key], f)
	}
	for k, fs := range by {
		if len(fs) < 2 {
			delete(by, k)
			continue
		}
		sort.Slice(fs, func(i, j int) bool { return firstTime(fs[i]).Before(firstTime(fs[j])) })
	}
	return by
}

func firstTime(path string) time.Time {
	log := read(path)
	for _, it := range log.Items {
		if !it.Time.IsZero() {
			return it.Time
		}
	}
	return time.Time{}
}

func read(path string) transcript.Log {
	log, _, _ := transcript.Reader{LineBytes: 16 << 20}.ReadLog(path, 0, 256<<20)
	return log
}

// replay runs one project's sessions in order through the lessons: the
// flush's learning at every 20 replies and at each session's end, the
// hooks' Before and After around every call of the tools the PreToolUse
// matcher names.
func replay(root string, paths []string) tally {
	t := replayed(root, paths, true)
	t.noMemory = replayed(root+"-nomem", paths, false).reminders
	return t
}

// replayed is one replay; without learn, no flush writes lessons and the
// hooks are not told outcomes: a project with no memory.
func replayed(root string, paths []string, learnOn bool) tally {
	check(os.MkdirAll(root, 0o755))
	t := tally{projects: 1}
	rec := lessons.RecordFor(filepath.Join(root, "..", filepath.Base(root)+"-state"), "p")
	failedBefore := map[string]bool{}  // intents that failed, in an earlier session or earlier in this one
	programFailed := map[string]bool{} // programs that failed in an earlier session (naive baseline)
	for si, path := range paths {
		log := read(path)
		t.sessions++
		cwd := log.Cwd
		session := fmt.Sprintf("s%d", si)
		advised := map[string]string{} // key → the fix a reminder gave, this session
		day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, si)
		learn := flusher(root, log, cwd, day)
		passes := passedLater(log)
		for i, it := range log.Items {
			for _, tool := range it.Tools {
				if !hooked(tool.Name) {
					continue
				}
				t.calls++
				raw := hookInput(tool, cwd, root)
				// Retirement is off: a recorded session never saw the reminders,
				// so it cannot have heeded one (docs/lessons.md).
				env := lessons.Env{Root: root, Session: session, Raw: raw, Now: day, Remind: true, Record: rec}
				call := lessons.CallOf(raw)
				keys := call.Keys(root)
				failed := tool.Result != nil && tool.Result.Status != transcript.StatusOK
				repeat := false
				why := ""
				if failed {
					why = errorLine(tool.Result.Text)
				}
				for _, k := range keys {
					if failed && failedBefore[k+"\x00"+why] && lessons.Worth(k) {
						repeat = true
					}
				}
				if repeat && passes[tool.ID] {
					// A check the work itself then made pass (a type
					// checker, CI run locally, a build being fixed): the
					// same command worked later, so no reminder could have
					// told the agent a better one.
					repeat = false
					t.worked++
				}
				a, _ := lessons.Before(env)
				helped := false
				if a.Context != "" {
					t.reminders++
					if !failed {
						t.needless++
						if *explain {
							fmt.Fprintf(os.Stderr, "needless %q: %s\n", call.Command, a.Context)
						}
					}
					if si == 0 {
						t.firstSessionReminders++
					}
					helped = contains(keys, a.Key)
					if f, _ := lessons.Read(root); true {
						if l, ok := f.Find(a.Key); ok && l.Kind == lessons.KindFix {
							advised[a.Key] = l.Worked
						}
					}
				}
				if failed {
					for _, k := range keys {
						if w, ok := advised[k]; ok && sameCommand(call.Command, w) {
							t.wrong++ // the fix a reminder gave failed
						}
					}
				}
				var b lessons.Answer
				if learnOn {
					b, _ = lessons.After(env, failed)
				}
				if b.Context != "" {
					t.reminders++
					if si == 0 {
						t.firstSessionReminders++
					}
					helped = helped || contains(keys, b.Key)
				}
				if repeat {
					t.repeats++
					if helped {
						t.helped++
					} else if learnOn && *explain {
						f, _ := lessons.Read(root)
						l, ok := f.Match(root, call)
						st, _ := rec.Stats()
						fmt.Fprintf(os.Stderr, "missed %s %q keys=%v lesson=%v %+v stat=%+v seen=%v\n", filepath.Base(path), call.Command, keys, ok, l, st[l.Key], rec.Seen(session)[l.Key])
					}
				}
				// The naive baseline: the program failed in an earlier session.
				prog := program(call)
				if prog != "" && programFailed[prog] {
					t.naiveReminders++
					if repeat {
						t.naiveRight++
					}
				}
				if failed {
					for _, k := range keys {
						failedBefore[k+"\x00"+why] = true
					}
				}
			}
			if learnOn {
				learn(i, false)
			}
		}
		if learnOn {
			learn(len(log.Items)-1, true)
		}
		for _, it := range log.Items {
			for _, tool := range it.Tools {
				if tool.Result != nil && tool.Result.Status != transcript.StatusOK && hooked(tool.Name) {
					if p := program(lessons.CallOf(hookInput(tool, cwd, root))); p != "" {
						programFailed[p] = true
					}
				}
			}
		}
	}
	return t
}

// flusher learns from a session as its flushes would: after every 20
// replies and at its end, each segment's lessons written before the calls
// after it run.
func flusher(root string, log transcript.Log, cwd string, day time.Time) func(i int, end bool) {
	var start, replies int
	return func(i int, end bool) {
		if !end {
			if it := log.Items[i]; it.Role != "assistant" || strings.TrimSpace(it.Text) == "" {
				return
			}
			if replies++; replies%20 != 0 {
				return
			}
		}
		if i+1 <= start {
			return
		}
		seg := distill.Segment{Items: log.Items[start : i+1], Dir: cwd, Cwd: cwd}
		outs := shortterm.Outcomes(cwd, seg)
		date := day.Format(time.DateOnly)
		check(lessons.Update(root, func(f *lessons.File) bool {
			return f.Learn(outs, date, ".claude/memory_short/daily/"+date+".md") > 0
		}))
		start = i + 1
	}
}

func hooked(name string) bool {
	switch name {
	case "Bash", "Write", "Edit", "MultiEdit", "NotebookEdit":
		return true
	}
	return false
}

// hookInput is the PreToolUse input of a recorded call, its file moved
// from the session's folder to the replay's project root.
func hookInput(tool transcript.Tool, cwd, root string) []byte {
	in := map[string]any{}
	if tool.Name == "Bash" {
		cmd := tool.Input.Command
		if cmd == "" {
			cmd = tool.Target
		}
		in["command"] = cmd
	} else {
		p := tool.Target
		if cwd != "" && strings.HasPrefix(p, cwd+"/") {
			p = filepath.Join(root, strings.TrimPrefix(p, cwd+"/"))
		}
		in["file_path"] = p
	}
	m := map[string]any{"tool_name": tool.Name, "tool_input": in}
	if tool.Result != nil && tool.Result.Status != transcript.StatusOK {
		m["error"] = tool.Result.Text // as PostToolUseFailure gets it
	}
	b, _ := json.Marshal(m)
	return b
}

// program is what the naive baseline matches on: a command's first word,
// a file tool's file.
func program(c lessons.Call) string {
	if c.Tool == "Bash" {
		f := strings.Fields(c.Command)
		if len(f) > 0 {
			return f[0]
		}
		return ""
	}
	return c.Target
}

// passedLater marks the failed calls whose very command succeeded later
// in the session.
func passedLater(log transcript.Log) map[string]bool {
	out := map[string]bool{}
	var failed []transcript.Tool
	for _, it := range log.Items {
		for _, t := range it.Tools {
			if t.Result == nil || t.Name != "Bash" {
				continue
			}
			if t.Result.Status != transcript.StatusOK {
				failed = append(failed, t)
				continue
			}
			for _, f := range failed {
				if sameCommand(command(f), command(t)) {
					out[f.ID] = true
				}
			}
		}
	}
	return out
}

func command(t transcript.Tool) string {
	if t.Input.Command != "" {
		return t.Input.Command
	}
	return t.Target
}

// errorLine is what a failure said, the way two failures are "the same
// way": its first line past Claude Code's "Exit code N", digits aside.
func errorLine(text string) string {
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "Exit code") {
			continue
		}
		return strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return '#'
			}
			return r
		}, l)
	}
	return ""
}

func sameCommand(a, b string) bool {
	return a != "" && strings.Join(strings.Fields(a), " ") == strings.Join(strings.Fields(b), " ")
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/lessons:", err)
		os.Exit(1)
	}
}
