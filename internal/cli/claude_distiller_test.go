package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/testfile"
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
	deadline := time.Now().Add(time.Minute) // a hang guard: background runs are slow on a loaded machine
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitBackground waits until the ended session has no unflushed segment
// and its background run has released its slot, its last act.
func waitBackground(t *testing.T, h *hookEnv, session string) {
	t.Helper()
	dir := filepath.Join(h.env["CEREBRO_STATE_DIR"], "sessions", project.ID(h.proj))
	waitFor(t, "the background run to finish", func() bool {
		data, err := os.ReadFile(filepath.Join(dir, session+".json"))
		_, perr := os.Stat(filepath.Join(dir, "pending", session))
		return err == nil && os.IsNotExist(perr) && strings.Contains(string(data), `"ended":true`) && !strings.Contains(string(data), `"background"`)
	})
}

func TestClaudeDistillerRunsDetachedWithFallbackAndBudget(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in claude is a shell script")
	}
	cases := []struct {
		name, script string
		budget       string
		timeout      string
		wantClaude   bool
	}{
		{"success", "printf '### Asked\\n- CLAUDE-DISTILLED the question\\n### Done\\n- done by the model\\n'\n", "5", "60", true},
		{"failure", "echo boom >&2; exit 3\n", "5", "60", false},
		{"garbage", "echo 'I cannot help with that.'\n", "5", "60", false},
		{"timeout", "sleep 30\n", "5", "1", false},
		{"budget used up", "printf '### Asked\\n- CLAUDE-DISTILLED\\n'\n", "0", "60", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHookEnv(t)
			h.env["CEREBRO_DISTILLER_KIND"] = "claude"
			// The stand-in answers only once the test opens its gate, after
			// the hook returned: a hook that waited for the distiller would
			// return with the section already written.
			gate := filepath.Join(t.TempDir(), "gate")
			h.env["CEREBRO_DISTILLER_COMMAND"] = standInClaude(t, h, `while [ ! -e "`+gate+`" ]; do sleep 0.02; done`+"\n"+c.script)
			h.env["CEREBRO_DISTILLER_TIMEOUT_SECONDS"] = c.timeout
			h.env["CEREBRO_DISTILLER_DAILY_BUDGET"] = c.budget
			for i := 0; i < 3; i++ {
				h.proc(t, h.input("s1", "UserPromptSubmit", "prompt", fmt.Sprintf("Please add feature %d.", i)), nil, "hook", "user-prompt-submit")
				h.proc(t, h.input("s1", "Stop", "last_assistant_message", fmt.Sprintf("I added feature %d.", i)), nil, "hook", "stop")
			}
			out, code := h.proc(t, h.input("s1", "SessionEnd", "reason", "other"), nil, "hook", "session-end")
			if code != 0 || out != "" {
				t.Fatalf("exit %d, stdout %q", code, out)
			}
			if c.budget != "0" && strings.Contains(h.daily(), "\n## ") {
				t.Fatalf("the hook waited for the distiller: the section is written before the distiller could answer:\n%s", h.daily())
			}
			testfile.Write(t, gate, "open\n")
			waitBackground(t, h, "s1")
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

// TestClaudeDistillerKeepsTurnsAskedForDuringARun: hooks that want a flush
// while the background run is busy hand it over instead of starting a
// second run; the run takes them up before it lets go, so the last turn
// reaches the daily file.
func TestClaudeDistillerKeepsTurnsAskedForDuringARun(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in claude is a shell script")
	}
	h := newHookEnv(t)
	h.env["CEREBRO_DISTILLER_KIND"] = "claude"
	// The stand-in lists the features its prompt mentions, so the test
	// sees which turns each run was given. Its first answer waits for a
	// gate the test opens once the session has ended: the run is busy for
	// every later hook however slow a loaded machine makes them (a fixed
	// sleep once let the run finish between two hooks, and the session's
	// end rightly started a second run).
	gate := filepath.Join(t.TempDir(), "gate")
	h.env["CEREBRO_DISTILLER_COMMAND"] = standInClaude(t, h,
		`while [ ! -e "`+gate+`" ]; do sleep 0.02; done`+"\n"+
			"printf '### Asked\\n'; cat | grep -oE 'add(ed)? feature [0-9]' | sort -u | sed 's/^/- CLAUDE /'\n")
	h.env["CEREBRO_SHORT_FLUSH_REPLIES"] = "2"
	h.env["CEREBRO_SHORT_MIN_REPLIES"] = "1"
	for i := 0; i < 3; i++ {
		h.proc(t, h.input("s1", "UserPromptSubmit", "prompt", fmt.Sprintf("Please add feature %d.", i)), nil, "hook", "user-prompt-submit")
		h.proc(t, h.input("s1", "Stop", "last_assistant_message", fmt.Sprintf("I added feature %d.", i)), nil, "hook", "stop")
	}
	h.proc(t, h.input("s1", "SessionEnd", "reason", "other"), nil, "hook", "session-end")
	testfile.Write(t, gate, "open\n")
	waitBackground(t, h, "s1")
	var started []string
	for _, e := range h.log(t) {
		if strings.HasPrefix(e.Message, "started background flush") {
			started = append(started, e.Message)
		}
	}
	if len(started) != 1 {
		t.Errorf("%d background runs started, want 1: %q", len(started), started)
	}
	st := filepath.Join(h.env["CEREBRO_STATE_DIR"], "sessions")
	pending, _ := filepath.Glob(filepath.Join(st, "*", "pending", "s1"))
	for i := 0; i < 3; i++ {
		for _, msg := range []string{"add feature", "added feature"} {
			if n := strings.Count(h.daily(), fmt.Sprintf("- CLAUDE %s %d\n", msg, i)); n != 1 || len(pending) != 0 {
				t.Fatalf("%q %d flushed %d times (pending %v):\n%s", msg, i, n, pending, h.daily())
			}
		}
	}
}
