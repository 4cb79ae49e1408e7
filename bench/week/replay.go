package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// replay plays one transcript through the hooks, each event at its own
// minute from start: the transcript's timestamps are moved to the same
// clock, so the sections land on the simulated day.
func (w *week) replay(file, session string, start time.Time) {
	lines := readLines(file)
	stem := strings.TrimSuffix(filepath.Base(file), ".jsonl")
	tr := filepath.Join(w.trDir, session+".jsonl")
	subs, _ := filepath.Glob(filepath.Join(filepath.Dir(file), stem+"__subagents__*.jsonl"))
	for _, s := range subs {
		name := strings.TrimPrefix(filepath.Base(s), stem+"__subagents__")
		dst := filepath.Join(w.trDir, session, "subagents", name)
		check(os.MkdirAll(filepath.Dir(dst), 0o755))
		data, err := os.ReadFile(s)
		check(err)
		check(os.WriteFile(dst, data, 0o644))
	}
	at := start
	tick := func() time.Time { at = at.Add(30 * time.Second); return at }
	hook := func(event string, kv ...string) string {
		return w.hook(tick(), session, tr, event, kv...)
	}
	f, err := os.Create(tr)
	check(err)
	hook("SessionStart", "source", "startup")
	open, stopped := false, true
	for _, l := range lines {
		if l.ok && l.item.Role == transcript.RoleUser && l.item.Kind == "" {
			if open && !stopped {
				hook("Stop", "last_assistant_message", "")
			}
			hook("UserPromptSubmit", "prompt", l.item.Text)
			open, stopped = true, false
		}
		if compaction(l.raw) {
			hook("PreCompact", "trigger", "auto")
		}
		if l.final && open {
			hook("Stop", "last_assistant_message", l.item.Text)
			stopped = true
		}
		f.Write(retime(l.raw, at))
	}
	f.Close()
	if open && !stopped {
		hook("Stop", "last_assistant_message", "")
	}
	hook("SessionEnd", "reason", "other")
}

var timestampRe = regexp.MustCompile(`"timestamp":"[^"]*"`)

// retime moves a line's timestamps to the simulated clock.
func retime(raw []byte, at time.Time) []byte {
	return timestampRe.ReplaceAll(raw, []byte(`"timestamp":"`+at.UTC().Format("2006-01-02T15:04:05.000Z")+`"`))
}

// start runs a new session's SessionStart at t and returns its inject.
func (w *week) start(session string, t time.Time) string {
	out := w.hook(t, session, filepath.Join(w.trDir, session+".jsonl"), "SessionStart", "source", "startup")
	var v struct {
		HookSpecificOutput struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if strings.TrimSpace(out) != "" {
		check(json.Unmarshal([]byte(out), &v))
	}
	return v.HookSpecificOutput.AdditionalContext
}

func (w *week) hook(t time.Time, session, tr, event string, kv ...string) string {
	m := map[string]any{"session_id": session, "cwd": w.proj, "hook_event_name": event, "transcript_path": tr}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	in, _ := json.Marshal(m)
	prog := *bin
	if *hotBin != "" && (event == "UserPromptSubmit" || event == "Stop" || event == "PostToolUse") {
		prog = *hotBin
	}
	cmd := exec.Command(prog, "hook", strings.ToLower(kebab(event)))
	cmd.Env, cmd.Stdin, cmd.Dir = append(w.env, "CEREBRO_NOW="+t.Format(time.RFC3339)), bytes.NewReader(in), w.proj
	res, err := cmd.Output()
	check(err)
	return string(res)
}

func (w *week) memhook(t time.Time, args ...string) {
	cmd := exec.Command(*bin, args...)
	cmd.Env, cmd.Dir = append(w.env, "CEREBRO_NOW="+t.Format(time.RFC3339)), w.proj
	_, err := cmd.Output()
	check(err)
}

type line struct {
	raw   []byte
	item  transcript.Item
	ok    bool
	final bool // the last assistant line with text in its turn
}

func readLines(file string) []line {
	fh, err := os.Open(file)
	check(err)
	defer fh.Close()
	var lines []line
	r := bufio.NewReaderSize(fh, 1<<20)
	for {
		raw, err := r.ReadBytes('\n')
		if len(raw) > 0 {
			it, ok := transcript.ParseLine(raw)
			lines = append(lines, line{raw: raw, item: it, ok: ok})
		}
		if err != nil {
			break
		}
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
