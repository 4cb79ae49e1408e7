package factory

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/hook"
	"github.com/cerebro-mem/cerebro/internal/runlog"
)

// memhook handles the five short-term events and PostToolUse; a
// SessionStart hands back the day's memory as the hook JSON, and an event
// whose project could not be found fails with why (hook.Run logs it).
func TestHookHandlersRunTheEventsDomainCalls(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	daily := filepath.Join(proj, ".claude", "memory_short", "daily", "2026-12-07.md")
	if err := os.MkdirAll(filepath.Dir(daily), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(daily, []byte("---\ntype: daily\ndate: 2026-12-07\nproject: proj\n---\n\n# 2026-12-07\n\n## 09:00–09:30 · session abc · auto\n<!-- cerebro:segment session=abc from=0 to=9 seq=1 -->\n\n### Asked\n- ship the importer\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": dir, "CEREBRO_HOME": filepath.Join(dir, "cerebro"), "CEREBRO_STATE_DIR": filepath.Join(dir, "state"),
		"CEREBRO_CONFIG": filepath.Join(dir, "none.toml")}
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.Local)
	f := New(System{Getenv: func(k string) string { return env[k] }, Now: func() time.Time { return now }})
	handlers := f.HookHandlers()

	var events []string
	for e := range handlers {
		events = append(events, e)
	}
	slices.Sort(events)
	if want := []string{"post-tool-use", "post-tool-use-failure", "pre-compact", "pre-tool-use", "session-end", "session-start", "stop", "user-prompt-submit"}; !reflect.DeepEqual(events, want) {
		t.Fatalf("events %v, want %v", events, want)
	}

	log := runlog.Open(filepath.Join(dir, "logs"), 1<<20)
	in := &hook.Input{SessionID: "s1", CWD: proj, Source: "startup", TranscriptPath: filepath.Join(dir, "s1.jsonl")}
	out, err := handlers["session-start"](context.Background(), &hook.Call{Event: "session-start", In: in, Root: proj, Log: log})
	if err != nil || !strings.Contains(string(out), "ship the importer") || !strings.Contains(string(out), `"hookEventName":"SessionStart"`) {
		t.Fatalf("session-start: %v\n%s", err, out)
	}

	// memhook alone answers a tool hook as memhook-hot does.
	lessonLine := "- [fix] `run build.js` — `node assets/build.js` failed (Cannot find module) → worked: `cd assets && node build.js` (2026-12-07, .claude/memory_short/daily/2026-12-07.md)\n"
	if err := os.WriteFile(filepath.Join(proj, ".claude", "memory_short", "lessons.md"), []byte(lessonLine), 0o644); err != nil {
		t.Fatal(err)
	}
	pre := &hook.Input{SessionID: "s1", CWD: proj, Event: "PreToolUse", Raw: []byte(`{"tool_name":"Bash","tool_input":{"command":"node assets/build.js"}}`)}
	out, err = handlers["pre-tool-use"](context.Background(), &hook.Call{Event: "pre-tool-use", In: pre, Root: proj, Log: log})
	if err != nil || !strings.Contains(string(out), `"hookEventName":"PreToolUse"`) || !strings.Contains(string(out), "node build.js`.") {
		t.Fatalf("pre-tool-use: %v\n%s", err, out)
	}

	noRoot := errors.New("find project: no such folder")
	for _, e := range []string{"session-start", "user-prompt-submit", "stop", "pre-compact", "session-end", "pre-tool-use", "post-tool-use-failure"} {
		if _, err := handlers[e](context.Background(), &hook.Call{Event: e, In: &hook.Input{SessionID: "s1"}, RootErr: noRoot, Log: log}); !errors.Is(err, noRoot) {
			t.Errorf("%s without a project: %v, want its error", e, err)
		}
	}
}
