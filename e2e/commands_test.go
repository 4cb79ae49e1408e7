//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// lastUserText is the user text of the last Messages request: for a slash
// command, its expansion with the `!` output.
func (s *Sandbox) lastUserText() string {
	s.t.Helper()
	reqs := s.Mock.Messages()
	if len(reqs) == 0 {
		s.t.Fatal("the mock got no request")
	}
	return s.Mock.turn(reqs[len(reqs)-1].JSON()).Text
}

// TestFlushCommand: /cerebro:flush writes the live session's segment as a
// manual section and the model sees memhook's report.
func TestFlushCommand(t *testing.T) {
	s := newSandbox(t)
	id := newSessionID(t)
	live := s.Live("--session-id", id)
	live.Send("The billing cron runs at 03:00 UTC")
	live.Send("It retries failed invoices twice")
	live.Send("Alerts go to the Platypus channel")
	live.Send("We keep invoices for seven years")
	if d := s.Daily(); d != "" {
		t.Fatalf("a section was written before /cerebro:flush:\n%s", d)
	}
	live.Send("/cerebro:flush")
	secs := sectionsOf(Sections(s.Daily()), id)
	if len(secs) != 1 || secs[0].Trigger != "manual" || !strings.Contains(secs[0].Body, "Platypus") {
		t.Fatalf("after /cerebro:flush the session has sections %v, want one manual section with what was said\n%s", triggers(secs), s.Daily())
	}
	if got := s.lastUserText(); !strings.Contains(got, "wrote") || !strings.Contains(got, id) {
		t.Errorf("the model did not get memhook flush's report; it got:\n%s", got)
	}
	live.Close()
	s.checkHooks()
}

// TestLongActiveCommand: `/cerebro:memory_long_active on` (a command with
// arguments) switches long-term memory on and registers the project on the
// desk; the model sees the report.
func TestLongActiveCommand(t *testing.T) {
	s := newSandbox(t)
	s.Prompt("/cerebro:memory_long_active on")
	if fi, err := os.Stat(filepath.Join(s.Project, ".claude", "memory_long")); err != nil || !fi.IsDir() {
		t.Fatalf("/cerebro:memory_long_active on did not create .claude/memory_long (%v); the model got:\n%s", err, s.lastUserText())
	}
	if !strings.Contains(readFile(t, filepath.Join(s.Desk, ".claude", "memory_short", "registry.json")), s.Project) {
		t.Errorf("the project is not in the desk registry")
	}
	if strings.Contains(s.lastUserText(), "exited with status") {
		t.Errorf("memhook long on failed; the model got:\n%s", s.lastUserText())
	}
	s.checkHooks()
}

// TestDoctorCommand: /cerebro:doctor reports on the same state dir the
// hooks use (CLAUDE_PLUGIN_DATA reaches memhook through the command's
// `env` prefix) and sees the hooks that already ran.
func TestDoctorCommand(t *testing.T) {
	s := newSandbox(t)
	live := s.Live()
	live.Send("hello")
	live.Send("/cerebro:doctor")
	live.Close()
	got := s.lastUserText()
	if !strings.Contains(got, "state dir "+s.PluginData()) {
		t.Errorf("doctor did not report the hooks' state dir %s; the model got:\n%s", s.PluginData(), got)
	}
	if strings.Contains(got, "no hook has run yet") || strings.Contains(got, "exited with status") {
		t.Errorf("doctor does not see the hooks that ran, or failed; the model got:\n%s", got)
	}
	s.checkHooks()
}
