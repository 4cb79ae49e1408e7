//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
)

// TestSkillEvolutionCycle: one whole cycle of a skill as a hypothesis. The
// model recalls (the run is recorded with its id), the person judges it
// with /cerebro:verdict, the model writes a candidate of the memory skill
// and adds it with `memhook skill candidate` (committed), the next recall
// starts a shadow pair in the background — two nested `claude -p` against
// the mock, the candidate's answer recorded and returned to nobody — the
// person judges the pair blind, and `memhook evolve` promotes the
// candidate in one commit with its record.
func TestSkillEvolutionCycle(t *testing.T) {
	s := newSandbox(t)
	s.Env["CEREBRO_EVOLUTION_SHADOW_SHARE"] = "1"
	s.Env["CEREBRO_EVOLUTION_MIN_VERDICTS"] = "1"
	s.Env["CEREBRO_DISTILLER_COMMAND"] = claudeBin
	s.Mock.On(Rule{Match: func(tn *Turn) bool {
		return strings.Contains(tn.Text, "CANDIDATE-TEXT") && strings.Contains(tn.Text, "<skill>")
	},
		Reply: func(*Turn) []Block { return []Block{Text("SCOPED ANSWER: the staging host is blue")} }})
	s.Memhook("remember", "the staging host is blue")
	memhook := `env CLAUDE_PLUGIN_DATA="` + s.PluginData() + `" "` + filepath.Join(repoRoot, "scripts", "memhook") + `"`

	runs := func(kind string) []map[string]any {
		var v struct {
			Runs []map[string]any `json:"runs"`
		}
		if err := json.Unmarshal([]byte(s.Memhook("runs", "--json", "--limit", "0", "--kind", kind)), &v); err != nil {
			t.Fatal(err)
		}
		return v.Runs
	}

	// 1. A recall by the model; nobody judged it yet: unfinished.
	s.Prompt("TRIGGER_BASHCMD:" + memhook + " recall staging host")
	rec := runs("recall")
	if len(rec) != 1 || rec[0]["verdict"] != nil {
		t.Fatalf("want one unjudged recall record: %v", rec)
	}
	id := rec[0]["id"].(string)

	// A turn the Skill tool drives is recorded by the hooks.
	s.Prompt("how to recall TRIGGER_SKILL:cerebro:use-memory")
	if turns := runs("turn"); len(turns) != 1 || turns[0]["open"] != nil || !strings.Contains(fmt.Sprint(turns[0]["skills"]), "name:use-memory") ||
		fmt.Sprint(turns[0]["tools"]) != "[Skill(use-memory)]" {
		t.Errorf("want one closed turn record of the memory skill: %v", turns)
	}

	// 2. The person's verdict through the slash command.
	s.Prompt("/cerebro:verdict " + id + " good the host was right")
	if got := s.commandTurn("verdict"); !strings.Contains(got, "verdict good recorded for run "+id) {
		t.Fatalf("the command's output did not reach the model:\n%s", got)
	}
	if rec = runs("recall"); rec[0]["verdict"] != "good" || rec[0]["verdict_note"] != "the host was right" {
		t.Fatalf("verdict not recorded: %v", rec[0])
	}

	// 3. A candidate written by the model and added with memhook (committed).
	draft := filepath.Join(s.Project, "draft.md")
	s.Prompt("draft it TRIGGER_WRITE:" + draft + ":CANDIDATE-TEXT recall with the scope the person gave")
	s.Prompt("TRIGGER_BASHCMD:" + memhook + " skill candidate use-memory --from " + draft + " --id scoped")
	cand := filepath.Join(s.Project, ".claude", "skills", "use-memory", "candidates", "scoped", "SKILL.md")
	if !strings.Contains(readFile(t, cand), "CANDIDATE-TEXT") {
		t.Fatal("the candidate was not written")
	}
	repo, err := gitrepo.Open(s.Project)
	if err != nil {
		t.Fatal(err)
	}
	if log, _ := repo.Log(".claude/skills/use-memory", 0); len(log) != 1 || log[0].Message != "skill use-memory: candidate scoped" {
		t.Fatalf("the candidate and the evolving copy must be one commit: %+v", log)
	}
	active := readFile(t, filepath.Join(s.Project, ".claude", "skills", "use-memory", "SKILL.md"))
	if active != readFile(t, filepath.Join(repoRoot, "skills", "use-memory", "SKILL.md")) {
		t.Fatal("the evolving copy is not the plugin's active version")
	}

	// 4. The next recall runs the pair in the shadow, in the background.
	r := s.Prompt("TRIGGER_BASHCMD:" + memhook + " recall the staging host")
	if strings.Contains(r.Stdout, "SCOPED ANSWER") {
		t.Fatal("the shadow's answer reached the session")
	}
	var shadow []map[string]any
	deadline := time.Now().Add(claudeLimit) // a hang guard: two nested claude -p
	for len(shadow) < 2 && time.Now().Before(deadline) {
		time.Sleep(500 * time.Millisecond)
		shadow = runs("shadow")
	}
	if len(shadow) != 2 {
		t.Fatalf("the shadow pair was not recorded: %v\nlog: %v", shadow, s.MemhookLog())
	}
	for _, x := range shadow {
		if x["error"] != nil || x["model_calls"] != float64(1) || x["tokens"] == nil || x["parent"] != runs("recall")[1]["id"] {
			t.Fatalf("a shadow arm of the second recall, one model call with its tokens, no error: %v", x)
		}
	}
	nested := 0
	for _, m := range s.Mock.Messages() {
		if strings.Contains(string(m.Body), "<skill>") {
			nested++
		}
	}
	if nested < 2 {
		t.Errorf("%d requests from the nested claude -p reached the mock, want 2", nested)
	}

	// 5. The person judges the pair blind, then evolve promotes.
	var pairs struct {
		Pairs []struct {
			Pair    string `json:"pair"`
			Answer1 string `json:"answer_1"`
			Answer2 string `json:"answer_2"`
		} `json:"pairs"`
	}
	json.Unmarshal([]byte(s.Memhook("evolve", "judge", "--list", "--json")), &pairs)
	if len(pairs.Pairs) != 1 {
		t.Fatalf("want one pair to judge: %+v", pairs)
	}
	got := []string{pairs.Pairs[0].Answer1, pairs.Pairs[0].Answer2}
	if !(strings.HasPrefix(got[0], "SCOPED ANSWER") && strings.HasPrefix(got[1], "MOCK-REPLY")) && !(strings.HasPrefix(got[1], "SCOPED ANSWER") && strings.HasPrefix(got[0], "MOCK-REPLY")) {
		t.Fatalf("each arm's own answer from the nested CLI: %q", got)
	}
	better := "2"
	if strings.HasPrefix(pairs.Pairs[0].Answer1, "SCOPED") {
		better = "1"
	}
	s.Memhook("evolve", "judge", "--pair", pairs.Pairs[0].Pair, "--better", better)
	out := s.Memhook("evolve")
	if !strings.Contains(out, "use-memory/scoped: promote — won on verdicts") {
		t.Fatalf("evolve:\n%s", out)
	}
	if got := readFile(t, filepath.Join(s.Project, ".claude", "skills", "use-memory", "SKILL.md")); !strings.Contains(got, "CANDIDATE-TEXT") {
		t.Fatalf("the active version after promotion: %q", got)
	}
	log, _ := repo.Log(".claude/skills/use-memory", 0)
	if len(log) != 2 || !strings.HasPrefix(log[0].Message, "skill use-memory: promote candidate scoped — won on verdicts") {
		t.Fatalf("the promotion must be one commit: %+v", log)
	}
	if l := s.Memhook("evolve", "log"); !strings.Contains(l, "use-memory/scoped  promote  commit "+log[0].Hash[:12]) {
		t.Errorf("evolve log:\n%s", l)
	}
	s.checkHooks()
}
