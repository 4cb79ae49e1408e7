//go:build e2e

package e2e

import (
	"regexp"
	"strings"
	"testing"
)

var recalledLine = regexp.MustCompile(`^cerebro: recalled 1 day, 1 session \(\d+ chars\)$`)

// TestRecallNoticeReachesThePersonNotTheModel: after a session left a
// distillate, the next session's SessionStart shows the person one line of
// what was recalled — Claude Code records it as a hook_system_message in
// the transcript, which is what it displays — and the model's requests do
// not carry it; with inject.notice off there is no such line.
func TestRecallNoticeReachesThePersonNotTheModel(t *testing.T) {
	s := newSandbox(t)
	s.Env["CEREBRO_SHORT_MIN_REPLIES"] = "1"
	first := s.Prompt("The ledger service is called Quokka")
	if first.Text() == "" {
		t.Fatal("the first session got no reply")
	}
	next := s.Prompt("Where were we?")
	shown := noticesOf(s, next.SessionID())
	if len(shown) != 1 || !recalledLine.MatchString(shown[0]) {
		t.Fatalf("the person was shown %q, want one line like \"cerebro: recalled 1 day, 1 session (N chars)\"", shown)
	}
	if ctx := injected(s.firstRequestOf(next.SessionID())); !strings.Contains(ctx, "Quokka") {
		t.Fatalf("the model was not handed the memory the line speaks of:\n%s", ctx)
	}
	for _, req := range s.requestsOf(next.SessionID()) {
		if strings.Contains(string(req.Body), "cerebro: recalled") {
			t.Error("the person's line reached the model")
		}
	}

	s.Env["CEREBRO_INJECT_NOTICE"] = "false"
	quiet := s.Prompt("And now?")
	if got := noticesOf(s, quiet.SessionID()); len(got) != 0 {
		t.Errorf("inject.notice = false, yet the person was shown %q", got)
	}
	if ctx := injected(s.firstRequestOf(quiet.SessionID())); !strings.Contains(ctx, "Quokka") {
		t.Errorf("inject.notice = false must not stop the inject:\n%s", ctx)
	}
	s.checkHooks()
}

// noticesOf are the hook lines Claude Code showed the person in a session
// (transcript attachments of type hook_system_message) from cerebro.
func noticesOf(s *Sandbox, session string) []string {
	var out []string
	for _, r := range s.Transcript(session) {
		a := r.Get("attachment")
		if a.Get("type").String() == "hook_system_message" && strings.HasPrefix(a.Get("content").String(), "cerebro:") {
			out = append(out, a.Get("content").String())
		}
	}
	return out
}
