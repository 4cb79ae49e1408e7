package hookreplay

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A session of two turns: the first ends on a tool result without text,
// the second is compacted and then answered.
const session = `{"type":"user","uuid":"u1","message":{"role":"user","content":"fix the build"}}
{"type":"assistant","uuid":"a1","message":{"role":"assistant","content":[{"type":"text","text":"looking"}]}}
{"type":"assistant","uuid":"a2","message":{"role":"assistant","content":[{"type":"text","text":"fixed it"}]}}
{"type":"user","uuid":"u2","message":{"role":"user","content":"now the tests"}}
{"type":"system","subtype":"compact_boundary","uuid":"c1","content":"Conversation compacted"}
{"type":"assistant","uuid":"a3","message":{"role":"assistant","content":[{"type":"text","text":"tests pass"}]}}
{"type":"user","uuid":"u3","message":{"role":"user","content":"and lint"}}
`

func TestPlayFiresHooksAsClaudeCode(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(file, []byte(session), 0o644); err != nil {
		t.Fatal(err)
	}
	lines, err := ReadLines(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 7 {
		t.Fatalf("read %d lines, want 7", len(lines))
	}
	var events []string
	written := 0
	Play(lines, func(event string, kv ...string) string {
		events = append(events, event+" "+strings.Join(kv, "="))
		return ""
	}, func(raw []byte) { written++ })
	want := []string{
		"SessionStart source=startup",
		"UserPromptSubmit prompt=fix the build",
		"Stop last_assistant_message=fixed it",
		"UserPromptSubmit prompt=now the tests",
		"PreCompact trigger=auto",
		"Stop last_assistant_message=tests pass",
		"UserPromptSubmit prompt=and lint",
		"Stop last_assistant_message=",
		"SessionEnd reason=other",
	}
	if !reflect.DeepEqual(events, want) {
		t.Fatalf("events\n%s\nwant\n%s", strings.Join(events, "\n"), strings.Join(want, "\n"))
	}
	if written != len(lines) {
		t.Fatalf("wrote %d lines, want %d", written, len(lines))
	}
}

func TestCommandRoutesPerTurnHooksToHot(t *testing.T) {
	for _, c := range []struct{ hot, event, prog, arg string }{
		{"", "Stop", "memhook", "stop"},
		{"hot", "Stop", "hot", "stop"},
		{"hot", "UserPromptSubmit", "hot", "user-prompt-submit"},
		{"hot", "SessionStart", "memhook", "session-start"},
		{"hot", "PreCompact", "memhook", "pre-compact"},
	} {
		prog, args := Command("memhook", c.hot, c.event)
		if prog != c.prog || len(args) != 2 || args[0] != "hook" || args[1] != c.arg {
			t.Errorf("Command(%q, %q) = %s %v, want %s hook %s", c.hot, c.event, prog, args, c.prog, c.arg)
		}
	}
}

func TestInjectReadsAdditionalContext(t *testing.T) {
	got, err := Inject(`{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"yesterday: x"}}`)
	if err != nil || got != "yesterday: x" {
		t.Fatalf("Inject = %q, %v", got, err)
	}
	if got, err := Inject("\n"); err != nil || got != "" {
		t.Fatalf("empty output: %q, %v", got, err)
	}
	if _, err := Inject("not json"); err == nil {
		t.Fatal("bad output read without error")
	}
}
