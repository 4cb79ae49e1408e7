package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/shortterm/distill"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// TestReplayRealTranscripts plays each real transcript through the hooks as
// Claude Code would: the file grows line by line, UserPromptSubmit fires
// before its prompt is written, Stop fires before the turn's final
// assistant line is written (the lag), SessionEnd at the end. Every user
// request must then appear exactly once in the daily sections' Asked
// lists, trivial sessions must leave nothing, long ones must have flushed
// on the way, and the next session must be handed the distillate.
func TestReplayRealTranscripts(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(testfile.Shared(t, "fixtures", "transcripts"), "*.jsonl"))
	if len(files) == 0 {
		t.Fatal("no transcripts among the shared fixtures")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".jsonl")
		t.Run(name, func(t *testing.T) { replay(t, file, nil) })
		// Tight thresholds flush at nearly every Stop, so the lag is hit
		// over and over.
		t.Run(name+"/tight", func(t *testing.T) {
			replay(t, file, map[string]string{"CEREBRO_SHORT_FLUSH_REPLIES": "2", "CEREBRO_SHORT_FLUSH_CHARS": "2000"})
		})
		// Compaction after the first turn: whatever its size, the turn
		// is written before the summary replaces it.
		t.Run(name+"/compact", func(t *testing.T) {
			replay(t, file, map[string]string{replayCompact: "1"})
		})
	}
}

type replayLine struct {
	raw   []byte
	item  transcript.Item
	ok    bool
	final bool // the last assistant line with text in its turn
}

func replay(t *testing.T, file string, env map[string]string) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var lines []replayLine
	for _, raw := range bytes.SplitAfter(data, []byte("\n")) {
		if len(raw) == 0 {
			continue
		}
		it, ok := transcript.ParseLine(raw)
		lines = append(lines, replayLine{raw: raw, item: it, ok: ok})
	}
	lastText := -1
	markFinal := func() {
		if lastText >= 0 {
			lines[lastText].final = true
		}
		lastText = -1
	}
	// The design's count: every user message and every assistant message
	// with text (by message id), on the main thread; a session changed
	// something when a call wrote, edited or committed.
	var prompts []string
	replies, changed := 0, false
	withText := map[string]bool{}
	for i, l := range lines {
		switch {
		case l.ok && l.item.Role == transcript.RoleUser && l.item.Kind == "":
			markFinal()
			prompts = append(prompts, l.item.Text)
			replies++
		case l.ok && l.item.Role == transcript.RoleAssistant && l.item.Text != "":
			lastText = i
			if !withText[l.item.ID] {
				withText[l.item.ID] = true
				replies++
			}
		}
		for _, tool := range l.item.Tools {
			changed = changed || transcript.ChangesProject(tool)
		}
	}
	markFinal()
	compact := env[replayCompact] != ""
	delete(env, replayCompact)

	h := newHookEnv(t)
	for k, v := range env {
		h.env[k] = v
	}
	tight := env != nil && !compact
	tr := filepath.Join(t.TempDir(), "session.jsonl")
	in := func(event string, kv ...string) string {
		m := map[string]any{"session_id": "replay-1", "cwd": h.proj, "hook_event_name": event, "transcript_path": tr}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	f, err := os.Create(tr)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h.hook(t, "session-start", in("SessionStart", "source", "startup"))
	turnOpen, stopped, stops := false, true, 0
	var typedSoFar []string
	stop := func(msg string) {
		h.hook(t, "stop", in("Stop", "last_assistant_message", msg))
		stopped = true
		if stops++; stops == 1 && compact {
			h.hook(t, "pre-compact", in("PreCompact", "trigger", "auto"))
			// Compaction loses nothing: every request made so far is in
			// a section by now, whichever flush wrote it (the Stop's own
			// automatic flush may have taken the turn already, and a turn
			// of session commands alone has nothing to write).
			asked := bulletsUnder(dailyFiles(t, h.proj), "### Asked")
			for _, p := range typedSoFar {
				if b := askedBullet(p); b != "" && countRequest(asked, b) == 0 {
					t.Errorf("request %.80q made before the compaction is in no section after it", b)
				}
			}
		}
	}
	for _, l := range lines {
		if l.ok && l.item.Role == transcript.RoleUser && l.item.Kind == "" {
			if turnOpen && !stopped {
				stop("")
			}
			h.hook(t, "user-prompt-submit", in("UserPromptSubmit", "prompt", l.item.Text))
			typedSoFar = append(typedSoFar, l.item.Text)
			turnOpen, stopped = true, false
		}
		if l.final && turnOpen {
			stop(l.item.Text)
		}
		f.Write(l.raw)
	}
	if turnOpen && !stopped {
		stop("")
	}
	h.hook(t, "session-end", in("SessionEnd", "reason", "other"))

	daily := dailyFiles(t, h.proj)
	t.Logf("%d lines, %d requests, %d replies, changed %v, %d sections", len(lines), len(prompts), replies, changed, strings.Count(daily, "\n## "))
	if replies < 4 && !changed && !(compact && stops > 0) {
		if daily != "" {
			t.Fatalf("trivial session (%d replies, nothing changed) was saved:\n%s", replies, daily)
		}
		return
	}
	if len(prompts) > 0 && daily == "" {
		t.Fatalf("a session of %d replies that changed something (%v) was not saved", replies, changed)
	}
	if (replies >= 20 || tight) && !compact && !strings.Contains(daily, "· auto") {
		t.Errorf("%d replies and no automatic flush", replies)
	}
	// Each request must be in some Asked list at least once (nothing lost)
	// and at most as often as it was typed (nothing doubled). What counts
	// as a request is the distiller's: ask it. A long request may be
	// shortened to fit its section: its bullet is then a head of it.
	asked := bulletsUnder(daily, "### Asked")
	typed := map[string]int{}
	for _, p := range prompts {
		if b := askedBullet(p); b != "" {
			typed[b]++
		}
	}
	for b, n := range typed {
		got := countRequest(asked, b)
		if got < 1 || got > n {
			t.Errorf("request %.80q: in Asked %d times, typed %d times", b, got, n)
		}
	}
	out := h.hook(t, "session-start", in("SessionStart", "source", "startup"))
	if !strings.Contains(out, "additionalContext") || !strings.Contains(out, "memory_short/daily/") {
		t.Errorf("the next session is not handed the distillate: %.300q", out)
	}
	if t.Failed() {
		t.Logf("daily file:\n%.6000s", daily)
	}
}

// replayCompact, in replay's env, fires PreCompact after the first Stop.
const replayCompact = "replay-compact"

func dailyFiles(t *testing.T, proj string) string {
	files, _ := filepath.Glob(filepath.Join(proj, ".claude", "memory_short", "daily", "*.md"))
	var b strings.Builder
	for _, f := range files {
		data, _ := os.ReadFile(f)
		b.Write(data)
	}
	return b.String()
}

// askedBullet is how the distiller lists a prompt under Asked, or "" when
// it is not a request (an acknowledgement, a session command).
func askedBullet(prompt string) string {
	body := distill.Extractive(distill.Segment{Items: []transcript.Item{{Role: transcript.RoleUser, Text: prompt}}})
	if b := bulletsUnder(body, "### Asked"); len(b) == 1 {
		return b[0]
	}
	return ""
}

// countRequest counts the bullets that are request, whole or shortened.
func countRequest(list []string, request string) int {
	n := 0
	for _, x := range list {
		head, cut := strings.CutSuffix(x, "…")
		if x == request || cut && len(head) >= 40 && strings.HasPrefix(request, head) {
			n++
		}
	}
	return n
}
