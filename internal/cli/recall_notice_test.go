package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

type sessionStartOutput struct {
	HookSpecificOutput struct {
		HookEventName, AdditionalContext string
	}
	SystemMessage string `json:"systemMessage"`
}

// TestSessionStartTellsThePersonWhatWasRecalled: when SessionStart recalls
// memory, its output carries one line for the person (Claude Code's
// systemMessage) saying how many days and sessions, which long-term files,
// and how many characters the model was handed — counted from that very
// text; the line is not part of the model's context; inject.notice = false
// turns it off; and nothing recalled means no output at all.
func TestSessionStartTellsThePersonWhatWasRecalled(t *testing.T) {
	h := newHookEnv(t)
	if out := h.hook(t, "session-start", h.input("s0", "SessionStart", "source", "startup")); out != "" {
		t.Fatalf("a project with no memory printed %q", out)
	}
	for _, s := range []string{"alpha", "bravo"} {
		for i := 0; i < 3; i++ {
			h.turn(t, s, fmt.Sprintf("Question %d of session %s about the ledger", i, s), fmt.Sprintf("Answer %d about the ledger", i))
		}
		h.hook(t, "session-end", h.input(s, "SessionEnd", "reason", "other"))
	}
	// The day before, with a third session: two daily files are recalled.
	dailyDir := project.Layout{Root: h.proj}.DailyDir()
	today := testfile.Read(t, filepath.Join(dailyDir, "2026-11-30.md"))
	first := today[strings.Index(today, "\n## "):]
	first = first[:strings.Index(first[1:], "\n## ")+1]
	yesterday := "---\ntype: daily\ndate: 2026-11-29\nproject: proj\n---\n\n# 2026-11-29\n" + strings.ReplaceAll(first, "alpha", "charlie")
	testfile.Write(t, filepath.Join(dailyDir, "2026-11-29.md"), yesterday)

	out := h.hook(t, "session-start", h.input("s1", "SessionStart", "source", "startup"))
	var v sessionStartOutput
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("stdout is not the hook JSON: %q", out)
	}
	ctx := v.HookSpecificOutput.AdditionalContext
	if !strings.Contains(ctx, "session alpha") || !strings.Contains(ctx, "session charlie") {
		t.Fatalf("the inject lacks the sessions:\n%s", ctx)
	}
	want := fmt.Sprintf("cerebro: recalled 2 days, 3 sessions (%.1fk chars)", float64(utf8.RuneCountInString(ctx))/1000)
	if v.SystemMessage != want {
		t.Errorf("systemMessage %q, want %q", v.SystemMessage, want)
	}
	if strings.Contains(ctx, "cerebro: recalled") {
		t.Error("the person's line reached the model's context")
	}

	// Long-term files are named.
	if _, errOut, code := run(t, h.env, "", "long", "on", "--project", h.proj); code != 0 {
		t.Fatal(errOut)
	}
	if _, errOut, code := run(t, h.env, "", "core", "set", "Ship on Tuesdays.", "--project", h.proj); code != 0 {
		t.Fatal(errOut)
	}
	out = h.hook(t, "session-start", h.input("s2", "SessionStart", "source", "startup"))
	json.Unmarshal([]byte(out), &v)
	if !strings.HasPrefix(v.SystemMessage, "cerebro: recalled 2 days, 3 sessions, CORE.md") {
		t.Errorf("systemMessage with CORE.md: %q", v.SystemMessage)
	}

	h.env["CEREBRO_INJECT_NOTICE"] = "false"
	out = h.hook(t, "session-start", h.input("s3", "SessionStart", "source", "startup"))
	v = sessionStartOutput{}
	json.Unmarshal([]byte(out), &v)
	if v.SystemMessage != "" || v.HookSpecificOutput.AdditionalContext == "" {
		t.Errorf("inject.notice = false: systemMessage %q, context %d chars", v.SystemMessage, len(v.HookSpecificOutput.AdditionalContext))
	}
}
