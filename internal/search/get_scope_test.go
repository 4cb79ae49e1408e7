package search

import "testing"

// TestGetScope: an id:path citation reads through the desk; a relative
// or absolute path, a Windows drive and a colon inside a folder name stay
// in the project's and the org's memory.
func TestGetScope(t *testing.T) {
	for path, want := range map[string]Scope{
		"a1b2c3:.claude/memory_long/wiki/X.md":     ScopeEverything,
		".claude/memory_short/daily/2026-11-30.md": ScopeAll,
		"/home/u/p/.claude/memory_long/index.md":   ScopeAll,
		"notes/a:b.md":                             ScopeAll,
		":x.md":                                    ScopeAll,
		`C\dir:x.md`:                               ScopeAll,
	} {
		if got := GetScope(path); got != want {
			t.Errorf("GetScope(%q) = %q, want %q", path, got, want)
		}
	}
}
