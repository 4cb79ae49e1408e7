package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// standInClaude writes a `claude` executable that answers like claude -p
// with a distillate, and, to prove the guard, first runs memhook's
// UserPromptSubmit hook with the environment it was given.
func standInClaude(t *testing.T, h *hookEnv, script string) string {
	dir := t.TempDir()
	body := "#!/bin/sh\n" +
		`printf '{"session_id":"nested","cwd":"%s","prompt":"nested prompt"}' "$PWD" | "` + memhookBin + `" hook user-prompt-submit` + "\n" +
		script
	path := filepath.Join(dir, "claude")
	if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestClaudeDistillerRunsDetachedWithFallbackAndBudget(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in claude is a shell script")
	}
	cases := []struct {
		name, script string
		budget       string
		wantClaude   bool
	}{
		{"success", "printf '### Asked\\n- CLAUDE-DISTILLED the question\\n### Done\\n- done by the model\\n'\n", "5", true},
		{"failure", "echo boom >&2; exit 3\n", "5", false},
		{"garbage", "echo 'I cannot help with that.'\n", "5", false},
		{"timeout", "sleep 30\n", "5", false},
		{"budget used up", "printf '### Asked\\n- CLAUDE-DISTILLED\\n'\n", "0", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHookEnv(t)
			h.env["CEREBRO_DISTILLER_KIND"] = "claude"
			h.env["CEREBRO_DISTILLER_COMMAND"] = standInClaude(t, h, c.script)
			h.env["CEREBRO_DISTILLER_TIMEOUT_SECONDS"] = "1"
			h.env["CEREBRO_DISTILLER_DAILY_BUDGET"] = c.budget
			for i := 0; i < 3; i++ {
				h.proc(t, h.input("s1", "UserPromptSubmit", "prompt", fmt.Sprintf("Please add feature %d.", i)), nil, "hook", "user-prompt-submit")
				h.proc(t, h.input("s1", "Stop", "last_assistant_message", fmt.Sprintf("I added feature %d.", i)), nil, "hook", "stop")
			}
			start := time.Now()
			out, code := h.proc(t, h.input("s1", "SessionEnd", "reason", "other"), nil, "hook", "session-end")
			if code != 0 || out != "" {
				t.Fatalf("exit %d, stdout %q", code, out)
			}
			if d := time.Since(start); d > 900*time.Millisecond {
				t.Fatalf("the hook waited for the distiller (%s)", d)
			}
			// The background run's last act is its log line.
			waitFor(t, "the background flush", func() bool {
				for _, e := range h.log(t) {
					if e.Event == "flush" && strings.HasPrefix(e.Message, "session-end flush:") {
						return true
					}
				}
				return false
			})
			got := h.daily()
			if c.wantClaude != strings.Contains(got, "CLAUDE-DISTILLED") {
				t.Fatalf("claude used = %v, want %v:\n%s", !c.wantClaude, c.wantClaude, got)
			}
			if !c.wantClaude && countContaining(bulletsUnder(got, "### Asked"), "feature 1.") != 1 {
				t.Fatalf("no extractive fallback:\n%s", got)
			}
			if strings.Count(got, "\n## ") != 1 {
				t.Fatalf("want one section:\n%s", got)
			}
			counts, _ := filepath.Glob(filepath.Join(h.env["CEREBRO_STATE_DIR"], "distiller", "budget-*[0-9]"))
			if c.budget != "0" {
				data, _ := os.ReadFile(counts[0])
				if len(counts) != 1 || strings.TrimSpace(string(data)) != "1" {
					t.Fatalf("budget files %v hold %q, want one call counted", counts, data)
				}
			} else if len(counts) != 0 {
				t.Fatal("a call was counted against a zero budget")
			}
			// The nested claude's own hook did nothing.
			if _, err := os.Stat(filepath.Join(h.env["CEREBRO_STATE_DIR"], "sessions", "nested.jsonl")); err == nil {
				t.Fatal("nested hook captured")
			}
			matches, _ := filepath.Glob(filepath.Join(h.env["CEREBRO_STATE_DIR"], "sessions", "*", "nested.*"))
			if len(matches) > 0 {
				t.Fatalf("nested hook wrote %v", matches)
			}
		})
	}
}
