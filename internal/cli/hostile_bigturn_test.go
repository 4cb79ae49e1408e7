//go:build linux

package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hookSession is session s1 of a hostile project as the hooks see it:
// its transcript, an input of its hook events, and a turn played through
// the hooks with its lines appended to the transcript.
type hookSession struct {
	tr   string
	in   func(event string, kv ...string) string
	turn func(i int, prompt, reply string)
}

// startSession starts session s1 and plays its first turn.
func (h *hostile) startSession(t *testing.T) hookSession {
	t.Helper()
	s := hookSession{tr: filepath.Join(filepath.Dir(h.proj), "s1.jsonl")}
	s.in = func(event string, kv ...string) string {
		return h.input("s1", event, append([]string{"transcript_path", s.tr}, kv...)...)
	}
	s.turn = func(i int, prompt, reply string) {
		h.hookEvent(t, "user-prompt-submit", s.in("UserPromptSubmit", "prompt", prompt))
		appendLine(t, s.tr, userLine(prompt))
		h.hookEvent(t, "stop", s.in("Stop", "last_assistant_message", reply))
		appendLine(t, s.tr, assistantLine(fmt.Sprintf("m%d", i), reply))
	}
	h.hookEvent(t, "session-start", s.in("SessionStart", "source", "startup"))
	s.turn(0, "Please add flag zero to the parser.", "I added flag zero.")
	return s
}

// bigJSONLine appends to a transcript one line of about n bytes: head,
// then a string of text with escapes and accents, then tail.
func bigJSONLine(t *testing.T, tr, head, tail string, n int) {
	t.Helper()
	f, err := os.OpenFile(tr, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString(head)
	chunk := []byte(strings.Repeat(`a long line\n with \u00e9 and \"quotes\" ü `, 1<<16/46))
	for w := 0; w < n; w += len(chunk) {
		f.Write(chunk)
	}
	f.WriteString(tail + "\n")
}

// A prompt, a reply, a tool's input and its result of 15 MB each in the
// transcript (under limits.transcript_line_bytes, so read, not passed
// over) and of 60 MB in the hook input keep every hook under the suite's
// 200 MB RSS bound (checked through rusage by execFile), and the turns
// before and after them are saved.
func TestHostileContainHugeTurnsEveryKind(t *testing.T) {
	h := newHostile(t)
	s := h.startSession(t)
	tr, turn := s.tr, s.turn
	big := filepath.Join(filepath.Dir(h.proj), "input.json")
	const line = 15 << 20
	// A 15 MB prompt, in the hook's input at 60 MB.
	bigInput(t, big, "s1", "UserPromptSubmit", h.proj, tr, "prompt", 60<<20)
	h.execFile(t, big, "hook", "user-prompt-submit")
	bigJSONLine(t, tr, `{"type":"user","timestamp":"2026-11-30T09:00:00Z","uuid":"u-big","message":{"role":"user","content":"Please look at: `, `"}}`, line)
	// A 15 MB tool input and its 15 MB result.
	bigInput(t, big, "s1", "PostToolUse", h.proj, tr, "tool_input", 60<<20)
	bigJSONLine(t, tr, `{"type":"assistant","timestamp":"2026-11-30T09:00:01Z","message":{"id":"m-tool","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":"notes/big.md","content":"`, `"}}]}}`, line)
	bigJSONLine(t, tr, `{"type":"user","timestamp":"2026-11-30T09:00:02Z","uuid":"r-big","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"`, `"}]}}`, line)
	h.execFile(t, big, "hook", "post-tool-use")
	// A 15 MB reply, in the Stop input at 60 MB.
	bigJSONLine(t, tr, `{"type":"assistant","timestamp":"2026-11-30T09:00:03Z","message":{"id":"m-big","role":"assistant","content":[{"type":"text","text":"I read it: `, `"}]}}`, line)
	bigInput(t, big, "s1", "Stop", h.proj, tr, "last_assistant_message", 60<<20)
	h.execFile(t, big, "hook", "stop")
	turn(3, "Please add flag three to the parser.", "I added flag three.")
	bigInput(t, big, "s1", "PreCompact", h.proj, tr, "custom_instructions", 60<<20)
	h.execFile(t, big, "hook", "pre-compact")
	turn(4, "Please add flag four to the parser.", "I added flag four.")
	h.endHugeSession(t, big, tr, "flag zero", "flag three", "flag four", "Please look at: a long line", "I read it: a long line", "notes/big.md")
}

// endHugeSession ends session s1 with a 60 MB SessionEnd input, flushes
// what is pending, and checks that each wanted turn was saved and no huge
// field reached the daily file whole.
func (h *hostile) endHugeSession(t *testing.T, big, tr string, want ...string) {
	t.Helper()
	bigInput(t, big, "s1", "SessionEnd", h.proj, tr, "reason", 60<<20)
	h.execFile(t, big, "hook", "session-end")
	h.execFile(t, "/dev/null", "flush", "--pending")
	got := h.dailyText()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("the session's turn %q was not saved:\n%.3000s", w, got)
		}
	}
	if len(got) > 1<<20 {
		t.Errorf("the daily file holds %d bytes: a huge field reached it whole", len(got))
	}
}
