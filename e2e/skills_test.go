//go:build e2e

package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
)

// TestSkillEditAfterReadCommitsAgain: after the Write that creates a skill
// file, the model's Read then Edit of it is a second commit of the skill
// (memhook skill log lists both), a Write outside skills/ is no commit, and
// the PostToolUse hook stays within its timeout.
func TestSkillEditAfterReadCommitsAgain(t *testing.T) {
	s := newSandbox(t)
	rel := "skills/deploy/SKILL.md"
	path := filepath.Join(s.Project, rel)
	id := newSessionID(t)
	s.Prompt("create the skill TRIGGER_WRITE:"+path+":deploy skill v1", "--session-id", id)

	// Read on the prompt, then Edit on the Read's result (decided from the
	// request alone, so a retried or parallel request cannot skip a step).
	s.Mock.On(
		Rule{Trigger: "EDIT_THE_SKILL", Match: func(tn *Turn) bool { return !tn.HasToolResult }, Reply: func(*Turn) []Block {
			return []Block{ToolUse("Read", map[string]any{"file_path": path})}
		}},
		Rule{Match: func(tn *Turn) bool { return tn.HasToolResult && lastToolUse(tn) == "Read" }, Reply: func(*Turn) []Block {
			return []Block{ToolUse("Edit", map[string]any{"file_path": path, "old_string": "v1", "new_string": "v2"})}
		}},
	)
	r := s.Prompt("bump the skill EDIT_THE_SKILL", "--resume", id)
	if got := readFile(t, path); got != "deploy skill v2\n" {
		t.Fatalf("the Edit did not land (%q); run:\n%s", got, r.Text())
	}
	repo, err := gitrepo.Open(s.Project)
	if err != nil {
		t.Fatal(err)
	}
	log, err := repo.Log(rel, 0)
	if err != nil || len(log) != 2 || log[0].Message != "skill deploy: Edit "+rel || log[1].Message != "skill deploy: Write "+rel {
		t.Fatalf("want two commits of the skill, the Edit on top of the Write: %+v %v", log, err)
	}
	if out := s.Memhook("skill", "log", "deploy", "--skills-dir", filepath.Join(s.Project, "skills")); !strings.Contains(out, "Edit "+rel) || !strings.Contains(out, "Write "+rel) {
		t.Errorf("memhook skill log does not list both commits:\n%s", out)
	}

	notes := filepath.Join(s.Project, "notes", "todo.md")
	s.Prompt("note it TRIGGER_WRITE:"+notes+":ship on Friday", "--resume", id)
	if got := readFile(t, notes); got != "ship on Friday\n" {
		t.Fatalf("the Write outside skills/ did not land: %q", got)
	}
	if all, err := repo.Log("", 0); err != nil || len(all) != 2 {
		t.Errorf("a Write outside skills/ changed the history: %d commits, %v", len(all), err)
	}
	if n := memhookRuns(s.checkHooks())["PostToolUse"]; n != 3 {
		t.Errorf("memhook ran %d PostToolUse hooks, want 3 (Write, Edit, Write; Read is not matched)", n)
	}
}

// lastToolUse is the tool the newest assistant message of the request called.
func lastToolUse(tn *Turn) string {
	msgs := tn.Body.Get("messages").Array()
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Get("role").String() == "assistant" {
			return msgs[i].Get(`content.#(type=="tool_use").name`).String()
		}
	}
	return ""
}
