package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/hook"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// TestClockVariableSetsCommandsAndHooks: memhook's commands and hooks run
// on the clock CEREBRO_NOW names (the run's own clock says 2026-11-30): a
// week after it is rolled up, a day after it is injected; a bad value is
// a warning and the real clock.
func TestClockVariableSetsCommandsAndHooks(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	testfile.Write(t, filepath.Join(proj, ".claude", "memory_short", "daily", "2026-12-07.md"),
		"---\ntype: daily\ndate: 2026-12-07\nproject: proj\n---\n\n# 2026-12-07\n\n## 09:00–09:30 · session abc · auto\n<!-- cerebro:segment session=abc from=0 to=9 seq=1 -->\n\n### Asked\n- ship the importer\n")
	env := map[string]string{"HOME": dir, "CEREBRO_STATE_DIR": filepath.Join(dir, "state"), "CEREBRO_CONFIG": filepath.Join(dir, "none.toml")}
	week := filepath.Join(proj, ".claude", "memory_short", "rollups", "week", "2026-W50.md")

	if _, _, code := run(t, env, "", "rollup-days", "--project", proj); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if _, err := os.Stat(week); err == nil {
		t.Fatal("a week after the run's clock was rolled up")
	}
	in := `{"session_id":"s1","cwd":"` + proj + `","hook_event_name":"SessionStart","source":"startup"}`
	if out, _, _ := run(t, env, in, "hook", "session-start"); strings.Contains(out, "ship the importer") {
		t.Fatalf("a day after the run's clock was injected:\n%s", out)
	}

	env[hook.NowEnv] = "2026-12-14T09:00"
	if _, errOut, code := run(t, env, "", "rollup-days", "--project", proj); code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(week); err != nil {
		t.Fatalf("the week before CEREBRO_NOW was not rolled up: %v", err)
	}
	in = `{"session_id":"s2","cwd":"` + proj + `","hook_event_name":"SessionStart","source":"startup"}`
	if out, _, _ := run(t, env, in, "hook", "session-start"); !strings.Contains(out, "ship the importer") {
		t.Fatalf("the day before CEREBRO_NOW was not injected:\n%s", out)
	}

	env[hook.NowEnv] = "soon"
	_, errOut, code := run(t, env, "", "rollup-days", "--project", proj)
	if code != 0 || !strings.Contains(errOut, "memhook: warning: read the clock: CEREBRO_NOW=\"soon\"") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}
