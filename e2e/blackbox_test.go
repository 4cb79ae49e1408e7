//go:build e2e

package e2e

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
)

// TestSkillEditBecomesACommit: the model writes a skill file with the Write
// tool; the PostToolUse hook commits it into the project's repository.
func TestSkillEditBecomesACommit(t *testing.T) {
	s := newSandbox(t)
	rel := "skills/demo/SKILL.md"
	path := filepath.Join(s.Project, rel)
	r := s.Prompt("create the skill TRIGGER_WRITE:" + path + ":demo skill v1")
	if got := r.Text(); got != "MOCK-REPLY after tool" {
		t.Fatalf("the Write call did not complete: %q\n%s", got, r.Stderr)
	}
	if !strings.Contains(readFile(t, path), "demo skill v1") {
		t.Fatal("the skill file was not written")
	}
	repo, err := gitrepo.Open(s.Project)
	if err != nil {
		t.Fatal(err)
	}
	log, err := repo.Log(rel, 0)
	if err != nil || len(log) != 1 || log[0].Message != "skill demo: Write "+rel {
		t.Fatalf("the edit must be one commit naming the skill and the tool: %+v %v", log, err)
	}
	for _, e := range s.MemhookLog() {
		if e.Get("event").String() == "post-tool-use" && e.Get("level").String() == "error" {
			t.Errorf("post-tool-use logged an error: %s", e.Raw)
		}
	}
}

// memhookLine is how a skill body calls memhook once Claude Code has
// substituted ${CLAUDE_PLUGIN_DATA} and ${CLAUDE_PLUGIN_ROOT}.
var memhookLine = regexp.MustCompile(`env CLAUDE_PLUGIN_DATA="[^"]*" "[^"]*/scripts/memhook"`)

// TestModelUsesTablesThroughTheSkill: the model invokes cerebro:use-tables,
// reads in its body how to call memhook, and runs remember with a table;
// the value lands in the project's journal and recall answers it at level 1.
func TestModelUsesTablesThroughTheSkill(t *testing.T) {
	s := newSandbox(t)
	var ran string
	s.Mock.On(Rule{
		Match: func(tn *Turn) bool { return strings.Contains(tn.Text, "# use-tables") && ran == "" },
		Reply: func(tn *Turn) []Block {
			prefix := memhookLine.FindString(tn.Text)
			if prefix == "" {
				return []Block{Text("SKILL BODY WITHOUT MEMHOOK LINE")}
			}
			ran = prefix + ` remember "Dima's phone is 111" --table friends --key Dima --kind phone --value 111`
			return []Block{ToolUse("Bash", map[string]any{"command": ran, "description": "remember"})}
		},
	})
	r := s.Prompt("remember Dima's phone TRIGGER_SKILL:cerebro:use-tables")
	if ran == "" {
		t.Fatalf("the skill body never reached the model\n%s\n%s", r.Stdout, r.Stderr)
	}
	if got := r.Text(); got != "MOCK-REPLY after tool" {
		t.Fatalf("the Bash call did not complete: %q\n%s", got, r.Stderr)
	}
	if j := readFile(t, filepath.Join(s.Project, ".claude", "memory_long", "tables", "journal.jsonl")); !strings.Contains(j, `"table":"friends"`) {
		t.Fatalf("journal:\n%s", j)
	}
	cmd := exec.Command(filepath.Join(repoRoot, "bin", "memhook"), "recall", "what is the phone of Dima")
	cmd.Dir, cmd.Env = s.Project, append(s.environ(), "CLAUDE_PLUGIN_DATA="+s.PluginData())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("recall: %v %s", err, out)
	}
	var ans struct {
		Kind      string `json:"kind"`
		DepthUsed int    `json:"depth_used"`
	}
	if err := json.Unmarshal(out, &ans); err != nil || ans.DepthUsed != 1 || ans.Kind != "affirmative" {
		t.Fatalf("recall after the skill's remember: %v\n%s", err, out)
	}
}
