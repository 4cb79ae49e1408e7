//go:build e2e

package e2e

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// commandTurn is the user text the model received for the newest
// invocation of /cerebro:<name>: the command's body with its `!` output.
func (s *Sandbox) commandTurn(name string) string {
	s.t.Helper()
	tag := "<command-name>/cerebro:" + name + "</command-name>"
	reqs := s.Mock.Messages()
	for i := len(reqs) - 1; i >= 0; i-- {
		if t := s.Mock.turn(reqs[i].JSON()); strings.Contains(t.Text, tag) {
			return t.Text
		}
	}
	s.t.Fatalf("no request carried %s", tag)
	return ""
}

// requestsOf are the Messages requests Claude Code made for a session.
func (s *Sandbox) requestsOf(sessionID string) []Request {
	var out []Request
	for _, r := range s.Mock.Messages() {
		if r.Header.Get("X-Claude-Code-Session-Id") == sessionID {
			out = append(out, r)
		}
	}
	return out
}

// promptContext is the UserPromptSubmit context a request carries ("" if none).
func promptContext(r Request) string {
	for _, m := range systemMessages(r) {
		if strings.Contains(m, "UserPromptSubmit hook additional context") {
			return m
		}
	}
	return ""
}

var recallCitation = regexp.MustCompile(`"cite": "\.claude/memory_short/daily/\d{4}-\d{2}-\d{2}\.md#L\d+-L\d+"`)

var dailyCitation = regexp.MustCompile(`\.claude/memory_short/daily/\d{4}-\d{2}-\d{2}\.md#L\d+-L\d+`)

// TestRecallCommandAndAutoRecall: /cerebro:recall (memhook recall) finds, with citations,
// what an earlier session of the test put in the daily file, and the model
// gets it in the command's one turn; with auto-recall on, a later prompt's
// request carries a recalled snippet, the flush having indexed the file;
// the command's allowed-tools let the model read around a hit and recall
// once more in other words.
func TestRecallCommandAndAutoRecall(t *testing.T) {
	s := newSandbox(t)
	s.Env["CEREBRO_SEARCH_AUTO_RECALL"] = "true"
	live := s.Live("--session-id", newSessionID(t))
	live.Send("The payment gateway we settled on is Axolotl Pay")
	live.Send("Refunds through Axolotl Pay settle within three days")
	live.Close()
	if !strings.Contains(s.Daily(), "Axolotl") {
		t.Fatalf("the first session left no daily memory to recall:\n%s", s.Daily())
	}
	// A natural paraphrase: auto-recall weighs the prompt's informative
	// words (axolotl, refunds), not the conversational ones around them.
	// The flush that wrote the daily file indexed it, so the very first
	// later prompt finds it: no search has to build the index first.
	const question = "Remind me how long Axolotl refunds take"
	before := s.Prompt(question)
	if reqs := s.requestsOf(before.SessionID()); len(reqs) == 0 || !strings.Contains(promptContext(reqs[0]), "[cerebro auto-recall]") {
		t.Errorf("the first later prompt found nothing, though the flush indexed what it wrote")
	}

	// /recall runs the black-box recall (the same word means the same
	// thing in the CLI and in Claude Code): one answer object whose items
	// cite the daily file by path#Lstart-Lend.
	r := s.Prompt("/cerebro:recall Axolotl refunds")
	got := s.commandTurn("recall")
	if !recallCitation.MatchString(got) || !strings.Contains(got, `"depth_used": 2`) || !strings.Contains(got, "Axolotl Pay settle") {
		t.Fatalf("the model did not get recall's answer with daily-file citations; it got:\n%s", got)
	}
	if strings.Contains(got, "exited with status") {
		t.Fatalf("memhook recall failed:\n%s", got)
	}
	if n := len(s.requestsOf(r.SessionID())); n != 1 {
		t.Errorf("/cerebro:recall took %d model requests, want 1 (the turn that reads the output)", n)
	}

	later := s.Prompt(question)
	reqs := s.requestsOf(later.SessionID())
	if len(reqs) == 0 {
		t.Fatal("no request for the later prompt")
	}
	ctx := promptContext(reqs[0])
	if !strings.Contains(ctx, "[cerebro auto-recall]") || !dailyCitation.MatchString(ctx) || !strings.Contains(ctx, "Axolotl") {
		t.Errorf("the later prompt's request carries no auto-recalled snippet with a citation; UserPromptSubmit context:\n%s\nthe same search by hand:\n%s",
			ctx, s.Memhook("search", "--json", question))
	}

	// The command lets the model read around a hit with memhook get, on
	// the command's own allowed-tools.
	days, _ := filepath.Glob(filepath.Join(s.DailyDir(), "*.md"))
	get := fmt.Sprintf("%q get .claude/memory_short/daily/%s --from 1 --lines 40", memhookPath(), filepath.Base(days[0]))
	s.Mock.On(Rule{Trigger: commandTag("recall"), Match: func(t *Turn) bool { return !t.HasToolResult }, Reply: func(*Turn) []Block { return bash(get) }})
	s.AllowedTools = ""
	s.Prompt("/cerebro:recall refunds")
	reqs = s.Mock.Messages()
	if res := reqs[len(reqs)-1].JSON().Get("messages|@reverse|0").Raw; !strings.Contains(res, "tool_result") || !strings.Contains(res, "Axolotl Pay settle") {
		t.Errorf("the model's memhook get during /cerebro:recall did not return the daily file:\n%s", res)
	}

	// Memory is matched by words: a question in other words finds nothing,
	// and the command lets the model recall once more in the words a note
	// would use, on its own allowed-tools, without a permission prompt.
	retry := fmt.Sprintf(`%q slash --state-dir %q --text recall 'Axolotl refunds'`, memhookPath(), s.PluginData())
	s.Mock.On(Rule{Trigger: commandTag("recall"), Match: func(t *Turn) bool { return !t.HasToolResult }, Reply: func(*Turn) []Block { return bash(retry) }})
	s.Prompt("/cerebro:recall reimbursement timeline")
	if got := s.commandTurn("recall"); !strings.Contains(got, `"kind": "none"`) {
		t.Errorf("a question no note words like was answered; the model got:\n%s", got)
	}
	reqs = s.Mock.Messages()
	last := reqs[len(reqs)-1].JSON().Get("messages|@reverse|0.content.0")
	res := last.Get("content").String()
	if last.Get("type").String() != "tool_result" || !recallCitation.MatchString(res) || !strings.Contains(res, "Axolotl Pay settle") {
		t.Errorf("the model's second recall in other words did not reach memory:\n%s", res)
	}
	if strings.Contains(res, "exited with status") || strings.Contains(res, "permission") {
		t.Errorf("the model's second recall failed or was not allowed:\n%s", res)
	}
	s.checkHooks()
}
