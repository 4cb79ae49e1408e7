//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestExtremeRecallResearchesThroughRealClaude: level 5 is the research
// walk, its calls made by the real Claude Code CLI through the shared
// runner (prompt on stdin): one call for rephrasings, one for the answer.
// The answer is relearned before it returns, so the same question then
// costs no model call; a denial survives a paraphrase and the fact stays.
// The team phrase lands in a table memory chooses itself.
func TestExtremeRecallResearchesThroughRealClaude(t *testing.T) {
	s := newSandbox(t)
	answer := "Your friend Denis may have known president Boris Yeltsin: he served in the Kremlin regiment from 1992 to 1994."
	s.Mock.On(
		Rule{Trigger: "REPHRASE:", Reply: func(*Turn) []Block { return []Block{Text("Boris Yeltsin\nthe president of Russia\nKremlin regiment")} }},
		Rule{Trigger: "You research one question for cerebro", Reply: func(*Turn) []Block { return []Block{Text(answer)} }},
	)
	s.Env["CEREBRO_DISTILLER_COMMAND"] = claudeBin
	s.Memhook("remember", "My friend Denis served in the Kremlin regiment from 1992 to 1994 (automation 134).")
	s.Memhook("graph", "link", "Denis", "Kremlin regiment", "--rel", "served in")

	research := func() (rephrase, answer int) {
		for _, r := range s.Mock.Messages() {
			b := string(r.Body)
			if strings.Contains(b, "REPHRASE:") {
				rephrase++
			} else if strings.Contains(b, "You research one question for cerebro") {
				answer++
			}
		}
		return
	}
	type recallAnswer struct {
		Answer    any    `json:"answer"`
		Kind      string `json:"kind"`
		DepthUsed int    `json:"depth_used"`
		Items     []struct {
			ID string `json:"id"`
		} `json:"items"`
		Relearned *struct {
			Object string `json:"object"`
		} `json:"relearned"`
	}
	recall := func(q string) recallAnswer {
		var a recallAnswer
		out := s.Memhook("recall", "--depth", "extreme", q)
		if err := json.Unmarshal([]byte(out), &a); err != nil {
			t.Fatalf("recall %q: %v\n%s", q, err, out)
		}
		return a
	}
	q := "Could my friend Denis have known Yeltsin?"
	first := recall(q)
	if rp, an := research(); first.DepthUsed != 5 || first.Answer != answer || rp != 1 || an != 1 || first.Relearned == nil {
		t.Fatalf("level 5 by the real CLI: %d rephrasing and %d answer requests reached the mock: %+v", rp, an, first)
	}
	// The tools each call was offered: Claude Code runs Read, Grep and
	// Glob without asking in -p, so they must not be offered at all; the
	// answer reads memory through memhook's recall (Bash) alone.
	for _, r := range s.Mock.Messages() {
		b := string(r.Body)
		tools := map[string]bool{}
		for _, tool := range r.JSON().Get("tools").Array() {
			tools[tool.Get("name").String()] = true
		}
		switch {
		case strings.Contains(b, "REPHRASE:"):
			if tools["Read"] || tools["Grep"] || tools["Glob"] || tools["Bash"] {
				t.Fatalf("the rephrasing call is offered tools: %v", tools)
			}
		case strings.Contains(b, "You research one question for cerebro"):
			if tools["Read"] || tools["Grep"] || tools["Glob"] || tools["Write"] || !tools["Bash"] {
				t.Fatalf("the answering call is offered more than memhook's recall: %v", tools)
			}
		}
	}
	second := recall(q)
	para := recall("Is it possible that Denis knew Yeltsin, the president?")
	if rp, an := research(); second.DepthUsed > 3 || para.DepthUsed > 3 || rp != 1 || an != 1 {
		t.Fatalf("relearned: no model call the second time (%d, %d requests): %+v / %+v", rp, an, second, para)
	}
	s.Memhook("deny", second.Items[0].ID, "--reason", "they served together but Denis never saw him")
	if denied := recall("Did Boris Yeltsin ever meet Denis?"); denied.Kind != "none" {
		t.Fatalf("a paraphrase brought the denied conclusion back: %+v", denied)
	}
	if fact := recall("When did Denis serve in the Kremlin regiment?"); fact.DepthUsed != 2 || !strings.Contains(fact.Answer.(string), "1992 to 1994") {
		t.Fatalf("the fact stays answerable: %+v", fact)
	}
	if rp, an := research(); rp != 1 || an != 1 {
		t.Fatalf("no research is spent on a denied claim or a known fact: %d, %d", rp, an)
	}

	out := s.Memhook("remember", "у меня в команде работает Юля — продменеджер, Дима — менеджер")
	if !strings.Contains(out, `"tables_created": [
    "komanda"
  ]`) {
		t.Fatalf("the team phrase lands in a table:\n%s", out)
	}
}

// The answering call's one tool is memhook's recall, run by the real CLI
// under the permission the runner grants; what it returns to the model
// has passed the secret guard, though the person's own recall shows the
// memory as stored.
func TestResearchReadsMemoryOnlyThroughAGuardedRecall(t *testing.T) {
	s := newSandbox(t)
	token := "ghp_" + strings.Repeat("aB3dE5gH7jK9", 3)
	s.Env["CEREBRO_DISTILLER_COMMAND"] = claudeBin
	s.Memhook("remember", "the walrus census deploy token is "+token)
	// remember keeps the token's marker (the guard of every way into
	// memory); a note the person wrote by hand still holds it in clear.
	wiki := filepath.Join(s.LongDir(), "wiki")
	if err := os.MkdirAll(wiki, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wiki, "Census.md"), []byte("# Census\n\nthe walrus census deploy token is "+token+", kept by hand.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	recallCmd := regexp.MustCompile("`(\"[^\"]+\" recall) --depth deep QUESTION`")
	s.Mock.On(
		Rule{Trigger: "REPHRASE:", Reply: func(*Turn) []Block { return []Block{Text("the polar survey keepers")} }},
		Rule{Trigger: "You research one question for cerebro", Match: func(t *Turn) bool { return !t.HasToolResult }, Reply: func(t *Turn) []Block {
			m := recallCmd.FindStringSubmatch(t.Text)
			if m == nil || !t.Tools["Bash"] {
				return []Block{Text("NONE")}
			}
			return []Block{ToolUse("Bash", map[string]any{"command": m[1] + " --depth deep walrus census deploy token", "description": "recall"})}
		}},
	)
	if own := s.Memhook("recall", "walrus census deploy token"); !strings.Contains(own, token) {
		t.Fatalf("the person's own recall shows memory as stored: %s", own)
	}
	s.Memhook("recall", "--depth", "extreme", "who keeps the secrets of the polar survey")
	var result string
	for _, r := range s.Mock.Messages() {
		for _, msg := range r.JSON().Get("messages").Array() {
			for _, b := range msg.Get("content").Array() {
				if b.Get("type").String() == "tool_result" {
					result += b.Get("content").Raw
				}
			}
		}
	}
	if !strings.Contains(result, "walrus census deploy token is [REDACTED:") || strings.Contains(result, token) {
		t.Fatalf("the recall the answering call ran returned (want the record, its token redacted):\n%s", result)
	}
}
