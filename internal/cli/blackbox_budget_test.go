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

// Naming a table asked for by parameter is one model call counted against
// the same day's budget as extreme recall; once it is spent the table is
// named by transliteration and its fate says why.
func TestTableNamingKeepsTheDailyBudget(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("stand-in claude is a shell script")
	}
	env, proj := bbEnv(t)
	bin := t.TempDir()
	claude := filepath.Join(bin, "claude")
	os.WriteFile(claude, []byte("#!/bin/sh\necho x >> '"+bin+"/calls'\ncat > '"+bin+"/prompt'\necho 'friends_of_dima'\n"), 0o755)
	env["CEREBRO_DISTILLER_COMMAND"] = claude
	user := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(user, []byte("[recall]\nextreme_daily_calls = 1\n"), 0o644)
	env["CEREBRO_CONFIG"] = user
	calls := func() int {
		b, _ := os.ReadFile(filepath.Join(bin, "calls"))
		return strings.Count(string(b), "x")
	}
	out, _, code := run(t, env, "", "remember", "--project", proj, "Миша дружит с Димой", "--table", "Друзья Димы", "--key", "Миша")
	a := object(t, out)
	if code != 0 || a["tables_created"].([]any)[0] != "friends_of_dima" || calls() != 1 {
		t.Fatalf("the model names the table (%d calls): %s", calls(), out)
	}
	if p, _ := os.ReadFile(filepath.Join(bin, "prompt")); !strings.Contains(string(p), "«Друзья Димы»") {
		t.Fatalf("the naming prompt: %s", p)
	}
	out, _, _ = run(t, env, "", "remember", "--project", proj, "Петя коллега", "--table", "Коллеги", "--key", "Петя")
	a = object(t, out)
	note := a["params"].(map[string]any)["table"].(map[string]any)["note"].(string)
	if calls() != 1 || a["tables_created"].([]any)[0] != "kollegi" || !strings.Contains(note, "named kollegi by transliteration: the day's 1 model calls of memory") {
		t.Fatalf("spent budget, %d calls: %s", calls(), out)
	}
	out, _, _ = run(t, env, "", "recall", "--project", proj, "--depth", "extreme", "the otter census")
	if n := object(t, out)["params"].(map[string]any)["depth"].(map[string]any)["note"].(string); calls() != 1 || !strings.Contains(n, "spent") {
		t.Fatalf("naming spent the budget extreme recall shares: %s", out)
	}
	out, _, _ = run(t, env, "", "recall", "--project", proj, "Миша", "--table", "Друзья Димы", "--key", "Миша")
	if object(t, out)["depth_used"].(float64) != 1 {
		t.Fatalf("recall by the asked name: %s", out)
	}
}
