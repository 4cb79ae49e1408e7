//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/project"
)

// DeskShortDir is the desk's private short-term folder (registry, rollup.md, daily/).
func (s *Sandbox) DeskShortDir() string { return filepath.Join(s.Desk, ".claude", "memory_short") }

// TestOrgRollupAndDashboard: /cerebro:org_rollup writes rollup.md (and its
// cache and log) on the desk from the registered projects' plan-facts,
// without touching them, a completed one as a Q4 case candidate; and
// /cerebro:org_dashboard puts that page before the model.
func TestOrgRollupAndDashboard(t *testing.T) {
	s := newSandbox(t)
	s.Memhook("long", "on")
	s.Memhook("planfact", "set", "stage", "Pilot with two clinics")
	s.Memhook("planfact", "set", "plan_status", "at_risk")
	s.Memhook("planfact", "set", "next", "Sign the data agreement")
	// A second project, completed today: a Q4 case candidate.
	done := filepath.Join(filepath.Dir(s.Project), "billing-revamp")
	initRepo(t, done)
	s.Memhook("long", "on", "--project", done)
	s.Memhook("planfact", "set", "status", "completed", "--project", done)
	pf := filepath.Join(s.LongDir(), "План-факт.md")
	before, err := os.Stat(pf)
	if err != nil {
		t.Fatal(err)
	}

	s.Prompt("/cerebro:org_rollup")
	got := s.commandTurn("org_rollup")
	if !strings.Contains(got, "1 active") || !strings.Contains(got, "1 recently completed") || strings.Contains(got, "exited with status") {
		t.Fatalf("the model did not get the rollup's summary; it got:\n%s", got)
	}
	dash := readFile(t, filepath.Join(s.DeskShortDir(), "rollup.md"))
	for _, want := range []string{"proj", "Pilot with two clinics", "at_risk", "Sign the data agreement"} {
		if !strings.Contains(dash, want) {
			t.Errorf("rollup.md lacks %q:\n%s", want, dash)
		}
	}
	if !regexp.MustCompile(`\*\*billing-revamp\*\* — completed .*Q4 case candidate`).MatchString(dash) {
		t.Errorf("rollup.md does not list the completed project as a Q4 case candidate:\n%s", dash)
	}
	for _, f := range []string{"rollup.log", filepath.Join("cache", project.ID(s.Project)+".json")} {
		if _, err := os.Stat(filepath.Join(s.DeskShortDir(), f)); err != nil {
			t.Errorf("the rollup left no %s: %v", f, err)
		}
	}
	if after, err := os.Stat(pf); err != nil || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("the rollup touched the project's plan-fact file (%v)", err)
	}

	s.Prompt("/cerebro:org_dashboard")
	head, _, _ := strings.Cut(dash, "\n")
	if got := s.commandTurn("org_dashboard"); !strings.Contains(got, head) || !strings.Contains(got, "Pilot with two clinics") || !strings.Contains(got, "billing-revamp") {
		t.Errorf("the model did not get the dashboard; it got:\n%s", got)
	}
	s.checkHooks()
}

// TestDeskSessionKeepsItsOwnMemory: a session run in $CEREBRO_HOME (the
// operator's own work) leaves its distillate in the desk's private
// .claude/memory_short/daily/, and the next desk session, run in a folder
// under the desk, is injected with it.
func TestDeskSessionKeepsItsOwnMemory(t *testing.T) {
	s := newSandbox(t)
	s.Cwd = s.Desk
	live := s.Live("--session-id", newSessionID(t))
	live.Send("Quarterly review of all projects is on Friday")
	live.Send("Ask every lead for a one-line status before it")
	live.Close()
	days, _ := filepath.Glob(filepath.Join(s.DeskShortDir(), "daily", "*.md"))
	if len(days) != 1 || !strings.Contains(readFile(t, days[0]), "Quarterly review") || !strings.Contains(readFile(t, days[0]), "one-line status") {
		t.Fatalf("the desk session left daily files %v, want one in %s with what was said", days, filepath.Join(s.DeskShortDir(), "daily"))
	}
	if d := s.Daily(); d != "" {
		t.Errorf("the desk session wrote into the project's memory:\n%s", d)
	}
	// A folder under the desk belongs to the desk too.
	s.Cwd = filepath.Join(s.Desk, "notes")
	if err := os.MkdirAll(s.Cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	next := s.Prompt("What is on this week?")
	if ctx := injected(s.firstRequestOf(next.SessionID())); !strings.Contains(ctx, "Quarterly review") {
		t.Errorf("the next desk session (in %s) was not injected with the desk's memory; context:\n%s", s.Cwd, ctx)
	}
	if _, err := os.Stat(filepath.Join(s.Cwd, ".claude")); err == nil {
		t.Errorf("the session in a desk subfolder made its own .claude/ there")
	}
	s.Cwd = s.Desk
	var desk bool
	for _, h := range s.cerebroHookRuns() {
		desk = desk || h.Event == "SessionStart"
	}
	if !desk {
		t.Error("no transcript of the desk sessions records cerebro's SessionStart hook")
	}
	s.checkHooks()
}
