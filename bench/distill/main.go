// Command distill measures what short-term memory keeps of real sessions:
// it replays each fixture transcript through the hooks (one memhook process
// per event, the transcript growing line by line and lagging the hooks as
// Claude Code's does) into a fresh project and state dir, takes what the
// next session's SessionStart injects, and scores it with the shared
// scorer against the sessions' key facts, next to the reference points
// computed from the same transcripts in the same run. Run it through
// bench/distill/run.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

var (
	bin      = flag.String("bin", "bin/memhook", "memhook binary to replay through")
	hotBin   = flag.String("hot", "", "memhook-hot beside -bin: the per-turn hooks go through it, as scripts/memhook routes them")
	fixtures = flag.String("fixtures", "../shared/fixtures/transcripts", "real transcripts")
	facts    = flag.String("facts", "../shared/bench/distill-facts-dev.json", "key facts of the transcripts")
	scorer   = flag.String("scorer", "../shared/bench/distill_score.py", "the scorer")
	keep     = flag.String("out", "", "keep the memory texts in this directory (default: a temporary one)")
	capChars = flag.Int("cap", 9000, "inject.max_chars the replay runs with")
	distill  = flag.String("distiller", "extractive", "distiller.kind")
)

func main() {
	flag.Parse()
	var doc struct {
		Transcripts []struct {
			File string `json:"file"`
		} `json:"transcripts"`
	}
	data, err := os.ReadFile(*facts)
	check(err)
	check(json.Unmarshal(data, &doc))
	work, err := os.MkdirTemp("", "cerebro-distill-")
	check(err)
	defer os.RemoveAll(work)
	out := *keep
	if out == "" {
		out = filepath.Join(work, "out")
	}
	dirs := map[string]string{}
	for _, k := range []string{"inject", "last", "dialogue"} {
		dirs[k] = filepath.Join(out, k)
		check(os.MkdirAll(dirs[k], 0o755))
	}
	fmt.Printf("%-60s %8s %8s %s\n", "transcript", "inject", "sections", "within cap")
	allWithin := true
	for _, t := range doc.Transcripts {
		file := filepath.Join(*fixtures, t.File)
		stem := strings.TrimSuffix(t.File, ".jsonl")
		lines := readLines(file)
		inject, sections := replay(work, file, lines)
		within := len([]rune(inject)) <= *capChars
		allWithin = allWithin && within
		fmt.Printf("%-60.60s %8d %8d %v\n", stem, len([]rune(inject)), sections, within)
		check(os.WriteFile(filepath.Join(dirs["inject"], stem+".txt"), []byte(inject), 0o644))
		last, dialogue := references(lines)
		check(os.WriteFile(filepath.Join(dirs["last"], stem+".txt"), []byte(last), 0o644))
		check(os.WriteFile(filepath.Join(dirs["dialogue"], stem+".txt"), []byte(dialogue), 0o644))
	}
	fmt.Println()
	for _, k := range []string{"last", "inject", "dialogue"} {
		name := map[string]string{
			"last": "reference: the last assistant message alone", "inject": "cerebro: the next SessionStart's inject",
			"dialogue": "reference: the whole dialogue without tool I/O"}[k]
		fmt.Printf("%-52s weighted recall %s\n", name, overall(dirs[k]))
	}
	fmt.Printf("every inject within the %d-character cap: %v\n", *capChars, allWithin)
	if *keep == "" {
		fmt.Println("(per-fact detail: run with -out DIR, then", *scorer, *facts, "--dir DIR/inject)")
	}
}

// overall runs the scorer on a folder and returns its overall figures.
func overall(dir string) string {
	res, err := exec.Command("python3", *scorer, *facts, "--dir", dir).Output()
	check(err)
	var v struct {
		Overall struct {
			Micro float64 `json:"weighted_recall_micro"`
			Macro float64 `json:"weighted_recall_macro"`
		} `json:"overall"`
	}
	check(json.Unmarshal(res, &v))
	return fmt.Sprintf("%.2f (macro over files %.2f)", v.Overall.Micro, v.Overall.Macro)
}

type line struct {
	raw   []byte
	item  transcript.Item
	ok    bool
	final bool // the last assistant line with text in its turn
}

func readLines(file string) []line {
	data, err := os.ReadFile(file)
	check(err)
	var lines []line
	for _, raw := range bytes.SplitAfter(data, []byte("\n")) {
		if len(raw) == 0 {
			continue
		}
		it, ok := transcript.ParseLine(raw)
		lines = append(lines, line{raw: raw, item: it, ok: ok})
	}
	lastText := -1
	for i, l := range lines {
		switch {
		case l.ok && l.item.Role == transcript.RoleUser && l.item.Kind == "":
			if lastText >= 0 {
				lines[lastText].final = true
			}
			lastText = -1
		case l.ok && l.item.Role == transcript.RoleAssistant && l.item.Text != "":
			lastText = i
		}
	}
	if lastText >= 0 {
		lines[lastText].final = true
	}
	return lines
}

// references are the scorer's reference points: the last assistant
// message, and every user and assistant text without tool input or output.
func references(lines []line) (string, string) {
	var last string
	var all strings.Builder
	for _, l := range lines {
		if !l.ok || l.item.Text == "" {
			continue
		}
		all.WriteString(l.item.Role + ": " + l.item.Text + "\n\n")
		if l.item.Role == transcript.RoleAssistant {
			last = l.item.Text
		}
	}
	return last, all.String()
}

// replay plays one transcript through the hooks and returns the next
// session's inject and the number of sections written.
func replay(work, file string, lines []line) (string, int) {
	stem := strings.TrimSuffix(filepath.Base(file), ".jsonl")
	dir, err := os.MkdirTemp(work, "run-")
	check(err)
	proj := filepath.Join(dir, "proj")
	check(os.MkdirAll(filepath.Join(proj, ".git"), 0o755))
	trDir := filepath.Join(dir, "projects", "slug")
	check(os.MkdirAll(trDir, 0o755))
	tr := filepath.Join(trDir, stem+".jsonl")
	// Subagent transcripts sit where Claude Code 2.1 writes them.
	subs, _ := filepath.Glob(filepath.Join(filepath.Dir(file), stem+"__subagents__*.jsonl"))
	for _, s := range subs {
		name := strings.TrimPrefix(filepath.Base(s), stem+"__subagents__")
		dst := filepath.Join(trDir, stem, "subagents", name)
		check(os.MkdirAll(filepath.Dir(dst), 0o755))
		data, err := os.ReadFile(s)
		check(err)
		check(os.WriteFile(dst, data, 0o644))
	}
	env := append(os.Environ(), "CEREBRO_STATE_DIR="+filepath.Join(dir, "state"), "CEREBRO_HOME="+filepath.Join(dir, "home"),
		"HOME="+dir, "CEREBRO_CONFIG="+filepath.Join(dir, "none.toml"), fmt.Sprintf("CEREBRO_INJECT_MAX_CHARS=%d", *capChars),
		"CEREBRO_DISTILLER_KIND="+*distill)
	hook := func(session, event string, kv ...string) string {
		m := map[string]any{"session_id": session, "cwd": proj, "hook_event_name": event, "transcript_path": tr}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		in, _ := json.Marshal(m)
		prog := *bin
		if *hotBin != "" && (event == "UserPromptSubmit" || event == "Stop" || event == "PostToolUse") {
			prog = *hotBin
		}
		cmd := exec.Command(prog, "hook", strings.ToLower(kebab(event)))
		cmd.Env, cmd.Stdin, cmd.Dir = env, bytes.NewReader(in), proj
		res, err := cmd.Output()
		check(err)
		return string(res)
	}
	f, err := os.Create(tr)
	check(err)
	hook("replay", "SessionStart", "source", "startup")
	open, stopped := false, true
	for _, l := range lines {
		if l.ok && l.item.Role == transcript.RoleUser && l.item.Kind == "" {
			if open && !stopped {
				hook("replay", "Stop", "last_assistant_message", "")
			}
			hook("replay", "UserPromptSubmit", "prompt", l.item.Text)
			open, stopped = true, false
		}
		if compaction(l.raw) {
			hook("replay", "PreCompact", "trigger", "auto")
		}
		if l.final && open {
			hook("replay", "Stop", "last_assistant_message", l.item.Text)
			stopped = true
		}
		f.Write(l.raw)
	}
	f.Close()
	if open && !stopped {
		hook("replay", "Stop", "last_assistant_message", "")
	}
	hook("replay", "SessionEnd", "reason", "other")
	out := hook("next", "SessionStart", "source", "startup")
	var v struct {
		HookSpecificOutput struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if strings.TrimSpace(out) != "" {
		check(json.Unmarshal([]byte(out), &v))
	}
	sections := 0
	daily, _ := filepath.Glob(filepath.Join(proj, ".claude", "memory_short", "daily", "*.md"))
	for _, d := range daily {
		data, _ := os.ReadFile(d)
		sections += strings.Count(string(data), "\n## ")
	}
	return v.HookSpecificOutput.AdditionalContext, sections
}

// compaction tells a line that starts a compacted context: Claude Code
// ran PreCompact just before writing it.
func compaction(raw []byte) bool {
	return bytes.Contains(raw, []byte(`"compact_boundary"`)) || bytes.Contains(raw, []byte(`"isCompactSummary":true`))
}

func kebab(event string) string {
	var b strings.Builder
	for i, r := range event {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte('-')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func check(err error) {
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			fmt.Fprintln(os.Stderr, string(ee.Stderr))
		}
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}
