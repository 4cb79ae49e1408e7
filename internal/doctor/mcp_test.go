package doctor

import (
	"os"
	"path/filepath"
	"testing"
)

// Which memory tools run without asking, and by whose rule: the user's
// file, or a project's read through the safe file layer.
func TestMCPPermissionNamesTheRuleAndItsFile(t *testing.T) {
	claude, proj := t.TempDir(), t.TempDir()
	env := &Env{ClaudeDir: claude}
	say := func(root string) string {
		rep := &Report{}
		reportMCPPermission(rep, env, root)
		if len(rep.Findings) != 1 {
			t.Fatalf("findings %+v", rep.Findings)
		}
		return rep.Findings[0].What
	}
	user := filepath.Join(claude, "settings.json")
	os.WriteFile(user, []byte(`{"permissions":{"allow":["mcp__plugin_cerebro_memory__memory_search","mcp__plugin_cerebro_memory__memory_get"]}}`), 0o644)
	if got, want := say(""), "memory tools: memory_search, memory_get run without asking (allowed in "+user+"); recall, remember ask before their first use in a session"; got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	os.MkdirAll(filepath.Join(proj, ".claude"), 0o755)
	local := filepath.Join(proj, ".claude", "settings.local.json")
	os.WriteFile(user, []byte(`{}`), 0o644)
	os.WriteFile(local, []byte(`{"permissions":{"allow":["mcp__plugin_cerebro_memory"]}}`), 0o644)
	if got, want := say(proj), "memory tools run without asking: "+local+" allows mcp__plugin_cerebro_memory"; got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	os.Remove(local)
	elsewhere := filepath.Join(t.TempDir(), "elsewhere.json")
	os.WriteFile(elsewhere, []byte(`{"permissions":{"allow":["mcp__plugin_cerebro_memory"]}}`), 0o644)
	if err := os.Symlink(elsewhere, local); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if got := say(proj); got[:len("memory tools ask")] != "memory tools ask" {
		t.Fatalf("a linked project file was read: %q", got)
	}
}
