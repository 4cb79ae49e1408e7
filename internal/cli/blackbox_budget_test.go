package cli

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Extreme recall's model calls are counted against the day's budget from
// the user's settings; a project file cannot raise it, and once it is
// spent level 5 is unavailable and says why.
func TestExtremeRecallKeepsTheDailyBudget(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("stand-in claude is a shell script")
	}
	env, proj := bbEnv(t)
	bin := t.TempDir()
	claude := filepath.Join(bin, "claude")
	os.WriteFile(claude, []byte("#!/bin/sh\necho x >> '"+bin+"/calls'\necho 'The census is run by Ada (notes/census.md).'\n"), 0o755)
	env["CEREBRO_DISTILLER_COMMAND"] = claude
	user := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(user, []byte("[recall]\nextreme_daily_calls = 3\n"), 0o644)
	env["CEREBRO_CONFIG"] = user
	os.MkdirAll(filepath.Join(proj, ".claude"), 0o755)
	os.WriteFile(filepath.Join(proj, ".claude", "cerebro.toml"), []byte("[recall]\nextreme_daily_calls = 100\n"), 0o644)
	calls := func() int {
		b, _ := os.ReadFile(filepath.Join(bin, "calls"))
		return strings.Count(string(b), "x")
	}
	out, _, _ := run(t, env, "", "recall", "--project", proj, "--depth", "extreme", "quarterly penguin census")
	if a := object(t, out); a["depth_used"].(float64) != 5 || calls() != 2 {
		t.Fatalf("first recall, %d calls: %s", calls(), out)
	}
	// One call left: the rephrasing takes it, the answer is refused.
	run(t, env, "", "recall", "--project", proj, "--depth", "extreme", "the walrus census")
	if calls() != 3 {
		t.Fatalf("second recall: %d calls, want 3", calls())
	}
	out, _, _ = run(t, env, "", "recall", "--project", proj, "--depth", "extreme", "the otter census")
	a := object(t, out)
	note := a["params"].(map[string]any)["depth"].(map[string]any)["note"].(string)
	if calls() != 3 || a["depth_used"].(float64) == 5 || !strings.Contains(note, "the day's 3 model calls for extreme recall are spent") {
		t.Fatalf("spent budget, %d calls: %s", calls(), out)
	}
}
