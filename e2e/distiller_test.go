//go:build e2e

package e2e

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// distillMarker tags what the mock answers to the claude distiller's prompt.
const distillMarker = "CLAUDE-DISTILLED"

// onDistillPrompt makes the mock answer the distiller's nested claude -p:
// its prompt carries the dialogue between <dialogue> tags; the reply lists
// the user's lines under ### Asked, tagged with distillMarker.
func onDistillPrompt(m *Mock) {
	user := regexp.MustCompile(`(?m)^USER: (.+)$`)
	m.On(Rule{Trigger: "<dialogue>", Reply: func(t *Turn) []Block {
		var b strings.Builder
		b.WriteString("### Asked\n")
		for _, u := range user.FindAllStringSubmatch(t.Text, -1) {
			b.WriteString("- " + distillMarker + " " + u[1] + "\n")
		}
		b.WriteString("### Done\n- " + distillMarker + " answered\n")
		return []Block{Text(b.String())}
	}})
}

// TestClaudeDistiller: with distiller.kind=claude the section comes from a
// real nested `claude -p` (its request reaches the mock), and that nested
// Claude Code, which loads the installed plugin too, does no cerebro work.
func TestClaudeDistiller(t *testing.T) {
	s := newSandbox(t)
	onDistillPrompt(s.Mock)
	s.PluginDir = "" // installed, so the nested claude loads cerebro as well
	s.Claude("plugin", "marketplace", "add", repoRoot)
	s.Claude("plugin", "install", "cerebro@cerebro")
	// Flush after the first reply: the subject here is who distils, not when.
	s.Env["CEREBRO_SHORT_FLUSH_REPLIES"] = "1"
	s.Env["CEREBRO_SHORT_MIN_REPLIES"] = "1"
	s.Env["CEREBRO_DISTILLER_KIND"] = "claude"
	s.Env["CEREBRO_DISTILLER_COMMAND"] = claudeBin
	id := newSessionID(t)

	live := s.Live("--session-id", id)
	live.Send("The search service is called Echidna and must answer within 50 ms")
	sec := s.waitSection(id, distillMarker, claudeLimit)
	live.Close()
	if sec == nil {
		t.Fatalf("no section distilled by claude within %s:\n%s\nmemhook log: %v", claudeLimit, s.Daily(), s.MemhookLog())
	}
	if !strings.Contains(sec.Body, "Echidna") {
		t.Errorf("the claude distillate does not reflect the dialogue:\n%s", sec.Body)
	}

	var nested []string
	for _, r := range s.Mock.Messages() {
		if sid := r.Header.Get("X-Claude-Code-Session-Id"); sid != id && strings.Contains(string(r.Body), "<dialogue>") {
			nested = append(nested, sid)
			// The listing proves the nested run loaded cerebro, hooks included.
			if !strings.Contains(string(r.Body), "cerebro:flush") {
				t.Errorf("the nested claude -p did not load the cerebro plugin, so its hooks prove nothing")
			}
		}
	}
	if len(nested) == 0 {
		t.Fatal("the mock saw no nested claude -p request carrying the dialogue")
	}
	data := s.PluginData()
	for _, e := range s.checkHooks() {
		for _, sid := range nested {
			if e.Get("session").String() == sid {
				t.Errorf("a cerebro hook did work in the nested distiller session %s: %s", sid, e.Raw)
			}
		}
	}
	for _, sid := range nested {
		if m, _ := filepath.Glob(filepath.Join(data, "sessions", "*", sid+"*")); len(m) > 0 {
			t.Errorf("cerebro keeps session state for the nested distiller session: %v", m)
		}
		if len(sectionsOf(Sections(s.Daily()), sid)) > 0 {
			t.Errorf("the nested distiller session %s got its own daily section", sid)
		}
	}
}

// waitSection polls the daily files for a section of the session containing
// text (background flushes finish after the hook that started them).
func (s *Sandbox) waitSection(sessionID, text string, limit time.Duration) *Section {
	deadline := time.Now().Add(limit)
	for {
		for _, x := range sectionsOf(Sections(s.Daily()), sessionID) {
			if strings.Contains(x.Body, text) {
				return &x
			}
		}
		if time.Now().After(deadline) {
			return nil
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestClaudeDistillerKeepsTheLastTurn: with the claude distiller, what was
// said after the last background flush still reaches the daily file once
// the session ends.
func TestClaudeDistillerKeepsTheLastTurn(t *testing.T) {
	s := newSandbox(t)
	onDistillPrompt(s.Mock)
	s.Env["CEREBRO_SHORT_FLUSH_REPLIES"] = "1"
	s.Env["CEREBRO_SHORT_MIN_REPLIES"] = "1"
	s.Env["CEREBRO_DISTILLER_KIND"] = "claude"
	s.Env["CEREBRO_DISTILLER_COMMAND"] = claudeBin
	id := newSessionID(t)
	live := s.Live("--session-id", id)
	live.Send("The queue is called Wombat")
	if s.waitSection(id, "Wombat", claudeLimit) == nil {
		t.Fatalf("the first turn was not distilled within %s:\n%s", claudeLimit, s.Daily())
	}
	live.Send("Its consumers are called Bilby")
	live.Close()
	if s.waitSection(id, "Bilby", claudeLimit) == nil {
		t.Errorf("the last turn did not reach the daily file within %s of the session's end:\n%s\nmemhook log: %v", claudeLimit, s.Daily(), s.MemhookLog())
	}
	s.checkHooks()
}
