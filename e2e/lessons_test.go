//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// checkScript fails unless it runs from its own folder, and marks the
// project when it ran.
const checkScript = `#!/bin/sh
[ -f check.sh ] || { echo "check.sh: no such file here: run it from scripts/" >&2; exit 3; }
touch ../ran-check
echo checked
`

// requestTexts is every string a request carries in its messages: text,
// system-reminders, tool results.
func requestTexts(r Request) string {
	var b strings.Builder
	var walk func(v gjson.Result)
	walk = func(v gjson.Result) {
		switch {
		case v.IsObject() || v.IsArray():
			v.ForEach(func(_, x gjson.Result) bool { walk(x); return true })
		case v.Type == gjson.String:
			b.WriteString(v.String())
			b.WriteByte('\n')
		}
	}
	walk(r.JSON().Get("messages"))
	walk(r.JSON().Get("system"))
	return b.String()
}

// carrying are the requests of a session whose messages hold s.
func (s *Sandbox) carrying(sessionID, text string) []Request {
	var out []Request
	for _, r := range s.requestsOf(sessionID) {
		if strings.Contains(requestTexts(r), text) {
			out = append(out, r)
		}
	}
	return out
}

// TestLessonReachesTheModelBeforeTheCall: a day whose session failed with
// `sh scripts/check.sh` and succeeded with `cd scripts && sh check.sh`
// leaves a lesson (lessons.md, cited to the daily file); in the next
// session the same failing call gets the reminder before it runs
// (PreToolUse's additionalContext reaches the model's next request), the
// fix is given right after a later failure (PostToolUseFailure's); with
// the person's lessons.enforce = deny the call is blocked with the lesson
// as the reason and the script never runs.
func TestLessonReachesTheModelBeforeTheCall(t *testing.T) {
	s := newSandbox(t)
	s.Env["CEREBRO_SHORT_MIN_REPLIES"] = "0"
	script := filepath.Join(s.Project, "scripts", "check.sh")
	if err := os.MkdirAll(filepath.Dir(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, []byte(checkScript), 0o755); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(s.Project, "ran-check")

	// The earlier day: the failure, then the form that worked.
	l := s.Live()
	l.Send("TRIGGER_BASHCMD:sh scripts/check.sh")
	l.Send("TRIGGER_BASHCMD:cd scripts && sh check.sh")
	l.Close()
	lessons := readFile(t, filepath.Join(s.Project, ".claude", "memory_short", "lessons.md"))
	if !strings.Contains(lessons, "`run check.sh`") || !strings.Contains(lessons, "worked: `cd scripts && sh check.sh`") ||
		!strings.Contains(lessons, ".claude/memory_short/daily/") || !strings.Contains(lessons, "run it from scripts/") {
		t.Fatalf("the flush wrote no lesson of the failure and its fix:\n%s", lessons)
	}

	// The next session: the failing form again.
	l = s.Live()
	first := l.Send("TRIGGER_BASHCMD:sh scripts/check.sh")
	id := first.Get("session_id").String()
	reminded := s.carrying(id, `<memory kind="lesson"`)
	if len(reminded) == 0 || !strings.Contains(requestTexts(reminded[0]), "what worked: `cd scripts && sh check.sh`") {
		t.Fatalf("no request of session %s carried the lesson's reminder (PreToolUse additionalContext)", id)
	}
	// Heeded: the fix's form; then the failing form once more. The
	// reminder was given this session already, so it comes right after
	// the failure instead (PostToolUseFailure additionalContext).
	l.Send("TRIGGER_BASHCMD:cd scripts && sh check.sh")
	before := len(s.carrying(id, "What worked then"))
	l.Send("TRIGGER_BASHCMD:sh scripts/check.sh")
	l.Close()
	if after := len(s.carrying(id, "What worked then")); after <= before {
		t.Errorf("the fix did not reach the model after the repeated failure (PostToolUseFailure additionalContext)")
	}

	// The person's own setting enforces it: denied with the lesson as the
	// reason, and the call never runs.
	os.Remove(marker)
	s.Env["CEREBRO_LESSONS_ENFORCE"] = "deny run check.sh"
	r := s.Prompt("TRIGGER_BASHCMD:cd scripts && sh check.sh")
	if _, err := os.Stat(marker); err == nil {
		t.Error("the enforced deny let the script run")
	}
	denied := s.carrying(r.SessionID(), "lessons.enforce says deny")
	if len(denied) == 0 || !strings.Contains(requestTexts(denied[0]), "cd scripts && sh check.sh") {
		t.Errorf("the model was not told why the call was denied")
	}
	s.checkHooks()
}
