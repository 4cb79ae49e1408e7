package testfile

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/runlog"
)

// HookInput is the JSON Claude Code hands a hook of session in project:
// its transcript sits beside the project, kv adds keys (prompt,
// last_assistant_message, source...).
func HookInput(project, session, event string, kv ...string) string {
	m := map[string]any{"session_id": session, "cwd": project, "hook_event_name": event,
		"transcript_path": filepath.Join(project, "..", session+".jsonl")}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// HookLog is every entry of the hook log in the state dir.
func HookLog(t testing.TB, stateDir string) []runlog.Entry {
	t.Helper()
	entries, err := runlog.Open(filepath.Join(stateDir, "logs"), 0).Read()
	if err != nil {
		t.Fatal(err)
	}
	return entries
}
