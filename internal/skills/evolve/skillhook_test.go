package evolve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// A turn the Skill tool opens records the tools after it, a Bash call by
// the verb it runs, and an edit of the skill's file (relative to the
// session's folder) is committed and logged; Stop closes the turn.
func TestSkillHookRecordsTheTurnAndCommitsTheEdit(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	skillFile := filepath.Join(proj, ".claude", "skills", "deploy", "SKILL.md")
	testfile.Write(t, skillFile, "---\nname: deploy\n---\nDeploy with care.\n")
	var logged []string
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	h := SkillHook{
		Turn:   runrec.Turn{Journal: runrec.Journal{Dir: filepath.Join(dir, "runs")}, Marker: filepath.Join(dir, "turn"), Session: "s1"},
		TurnOK: true, Reference: Reference{Dir: filepath.Join(dir, "ref")}, PluginRoot: func() string { return "" }, Now: now,
		Log: func(event, level, project, msg string) { logged = append(logged, event+" "+level+" "+project+" "+msg) },
	}
	for _, u := range []ToolUse{
		{Tool: "Skill", Skill: "plugin:deploy"},
		{Tool: "Bash", Command: "memhook recall the deploy steps"},
		{Tool: "Edit", FilePath: filepath.Join(".claude", "skills", "deploy", "SKILL.md"), CWD: proj},
	} {
		if err := h.PostToolUse(u); err != nil {
			t.Fatalf("%+v: %v", u, err)
		}
	}
	if _, err := os.Stat(h.Turn.Marker); err != nil {
		t.Fatalf("no open turn after the Skill tool: %v", err)
	}
	if len(logged) != 1 || !strings.HasPrefix(logged[0], "skill-commit info ") || !strings.Contains(logged[0], "committed skill deploy (Edit)") {
		t.Fatalf("log: %q", logged)
	}
	h.Stop()
	if _, err := os.Stat(h.Turn.Marker); !os.IsNotExist(err) {
		t.Fatalf("the turn is still open after Stop: %v", err)
	}
	st, err := runrec.OpenStore(h.Turn.Journal)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, err := st.Runs(runrec.Filter{})
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs %+v, %v", runs, err)
	}
	if got := strings.Join(runs[0].Tools, ","); !strings.Contains(got, "Skill(deploy)") || !strings.Contains(got, "recall") || !strings.Contains(got, "Edit") {
		t.Fatalf("the turn's tools: %s", got)
	}
}

// Without a usable turn nothing is recorded, and a file that is no
// skill's is not committed.
func TestSkillHookWithoutATurn(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.md")
	testfile.Write(t, notes, "notes\n")
	h := SkillHook{Reference: Reference{Dir: filepath.Join(dir, "ref")}, PluginRoot: func() string { return "" }, Now: time.Now(),
		Log: func(event, level, project, msg string) { t.Errorf("logged %s %s", event, msg) }}
	if err := h.PostToolUse(ToolUse{Tool: "Write", FilePath: notes}); err != nil {
		t.Fatal(err)
	}
	h.Stop()
	if _, err := os.Stat(filepath.Join(dir, ".git")); !os.IsNotExist(err) {
		t.Fatalf("a repository was made for a file that is no skill's: %v", err)
	}
}
