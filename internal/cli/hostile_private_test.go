//go:build linux

package cli

import (
	"fmt"
	"strings"
	"testing"
)

// Every way a person writes <private> is honoured, through the capture,
// the flush into the daily file, the search index, auto-recall on the
// next prompt and remember: a nested span (the text after the inner close
// is still inside the outer one), a tag with an attribute, blanks inside
// the brackets, any case.
func TestHostilePrivateEveryForm(t *testing.T) {
	h := newHostile(t)
	h.hot = false
	h.userConfig(t, "[search]\nauto_recall = true\nauto_recall_budget_ms = 10000\n[hook]\ndeadline_ms = 60000\n") // budgets a loaded machine cannot outrun
	forms := []string{
		"ORCHARD flag 0: <private>outer PLUM-1 <private>inner PLUM-2</private> after inner PLUM-3</private> kept.",
		`ORCHARD flag 1: <private reason="pin">PLUM-4</private> kept.`,
		"ORCHARD flag 2: < private >PLUM-5< / private > kept.",
		"ORCHARD flag 3: <Private reason=x>PLUM-6</PRIVATE > kept.",
		"ORCHARD flag 4: <pRiVaTe>PLUM-7 <PRIVATE>PLUM-8</private>PLUM-9",
	}
	for i, p := range forms {
		h.hookEvent(t, "user-prompt-submit", h.input("s1", "UserPromptSubmit", "prompt", p))
		h.hookEvent(t, "stop", h.input("s1", "Stop", "last_assistant_message", fmt.Sprintf("Planted the ORCHARD row %d.", i)))
	}
	h.hookEvent(t, "session-end", h.input("s1", "SessionEnd", "reason", "other"))
	out, errOut, code := h.exec(t, "", "remember", "--project", h.proj, "ORCHARD gate: <private>outer PLUM-10 <private>PLUM-11</private> PLUM-12</private> < private reason=x >PLUM-13</private> open")
	if code != 0 {
		t.Fatalf("remember: %s%s", out, errOut)
	}
	h.exec(t, "", "index", "--project", h.proj)
	recall := h.hookEvent(t, "user-prompt-submit", h.input("s2", "UserPromptSubmit", "prompt", "What did we plant in the ORCHARD rows, and the gate?"))
	search, _, _ := h.exec(t, "", "search", "--project", h.proj, "ORCHARD PLUM")
	daily := h.dailyText()
	if !strings.Contains(daily, "ORCHARD flag 4") || !strings.Contains(daily, "[private]") {
		t.Fatalf("the dialogue was not flushed:\n%s", daily)
	}
	if !strings.Contains(recall, "ORCHARD") {
		t.Fatalf("auto-recall recalled nothing of the ORCHARD:\n%s", recall)
	}
	for what, text := range map[string]string{"daily file": daily, "auto-recall": recall, "search": search, "remember's answer": out} {
		if strings.Contains(text, "PLUM") {
			t.Errorf("the %s holds private text:\n%s", what, text)
		}
	}
	for _, dir := range []string{h.proj, h.env["CEREBRO_STATE_DIR"]} {
		if got := holds(t, dir, "PLUM"); len(got) > 0 {
			t.Errorf("private text is kept in %v", got)
		}
	}
}
