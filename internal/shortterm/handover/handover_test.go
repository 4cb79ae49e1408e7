package handover

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/hook"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/shortterm/capture"
)

func TestPostToolUse(t *testing.T) {
	for _, c := range []struct {
		in   hook.Input
		open bool
		want string
	}{
		{hook.Input{ToolName: "Skill"}, false, "a skill ran"},
		{hook.Input{ToolName: "Edit", ToolFilePath: "/p/.claude/skills/x/SKILL.md"}, false, "a skill file may have changed"},
		{hook.Input{ToolName: "Write", ToolFilePath: ".claude/skills/x/SKILL.md", CWD: "/p"}, false, "a skill file may have changed"},
		{hook.Input{ToolName: "Edit", ToolFilePath: "/p/main.go"}, false, ""},
		{hook.Input{ToolName: "Edit", ToolFilePath: "/p/main.go"}, true, "a skill's turn goes on"},
		{hook.Input{ToolName: "Bash"}, false, ""},
		{hook.Input{ToolName: "Bash", ToolFilePath: "/p/skills/x"}, false, ""},
	} {
		if got := PostToolUse(&c.in, c.open); got != c.want {
			t.Errorf("PostToolUse(%+v, open %v) = %q, want %q", c.in, c.open, got, c.want)
		}
	}
}

func TestStopAndPrompt(t *testing.T) {
	cfg := config.Load(func(string) string { return "" }, t.TempDir())
	cfg.Short.FlushReplies = 2
	cfg.Short.FlushChars = 1 << 30
	st := &capture.State{}
	if got := Stop(FlushDue(cfg, st), false); got != "" {
		t.Fatalf("Stop on an empty session = %q", got)
	}
	if got := Stop(FlushDue(cfg, st), true); got != "a skill's turn ends" {
		t.Fatalf("Stop with an open turn = %q", got)
	}
	st.SegReplies = 2
	if !FlushDue(cfg, st) || Stop(FlushDue(cfg, st), true) != "flush due" {
		t.Fatalf("two replies at a threshold of two: not due (%q)", Stop(FlushDue(cfg, st), true))
	}
	cfg.Search.AutoRecall = false
	if got := Prompt(cfg, "what did we decide about the orders table?"); got != "" {
		t.Fatalf("Prompt with auto-recall off = %q", got)
	}
}

func TestTurnOpen(t *testing.T) {
	paths := config.Paths{State: t.TempDir()}
	root := t.TempDir()
	if TurnOpen(paths, root, "s1") {
		t.Fatal("no marker, yet open")
	}
	m := paths.OpenTurn(project.ID(root), "s1")
	os.MkdirAll(filepath.Dir(m), 0o700)
	if err := os.WriteFile(m, []byte("r 1"), 0o600); err != nil {
		t.Fatal(err)
	}
	if !TurnOpen(paths, root, "s1") {
		t.Fatal("marker written, yet not open")
	}
	if TurnOpen(paths, root, "../s1") || TurnOpen(paths, "", "s1") {
		t.Fatal("a session id that is not a file name, or no project, counted as open")
	}
}

// TestOneOwnerOfTheDecision fails when memhook or memhook-hot decides
// again by itself whether memhook needs a per-turn event.
func TestOneOwnerOfTheDecision(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || filepath.Ext(p) != ".go" || strings.HasSuffix(p, "_test.go") || filepath.Base(filepath.Dir(p)) == "handover" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s := string(b)
		for _, own := range []string{".AutoRecalls(", "Thresholds{Chars: cfg.Short", "Thresholds{Chars: sc.cfg.Short", "OpenTurn(project.ID(c.Root)"} {
			if strings.Contains(s, own) {
				t.Errorf("%s decides by itself (%s); ask package handover", p, own)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
