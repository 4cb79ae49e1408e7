package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSessionStartIndexesInBackground: daily files no flush wrote and no
// index read are found by a search that may not update the index at all
// (update budget 0), once the background run a SessionStart of the built
// memhook started has ended.
func TestSessionStartIndexesInBackground(t *testing.T) {
	h := newHookEnv(t)
	days := filepath.Join(h.proj, ".claude", "memory_short", "daily")
	os.MkdirAll(days, 0o755)
	for _, d := range []string{"2026-03-14", "2026-03-15", "2026-07-02"} {
		text := "# " + d + "\n\n## 10:00–10:30 · session s" + d + " · auto\n### Done\n- routine work on the parser.\n"
		if d == "2026-03-14" {
			text += "- the zanzibar cache now expires after an hour.\n"
		}
		os.WriteFile(filepath.Join(days, d+".md"), []byte(text), 0o644)
	}
	search := func() []string {
		env := map[string]string{"CEREBRO_SEARCH_UPDATE_BUDGET_MS": "0"}
		for k, v := range h.env {
			env[k] = v
		}
		out, errOut, code := run(t, env, "", "search", "--project", h.proj, "--json", "zanzibar cache")
		var resp struct{ Results []struct{ Path string } }
		if code != 0 || json.Unmarshal([]byte(out), &resp) != nil {
			t.Fatalf("search: exit %d %s\n%s", code, errOut, out)
		}
		var paths []string
		for _, r := range resp.Results {
			paths = append(paths, r.Path)
		}
		return paths
	}
	if got := search(); len(got) != 0 {
		t.Fatalf("found before any index: %v", got)
	}
	if _, code := h.proc(t, h.input("s1", "SessionStart", "source", "startup"), nil, "hook", "session-start"); code != 0 {
		t.Fatalf("session-start: exit %d", code)
	}
	waitBackgroundIndex(t, h.env["CEREBRO_STATE_DIR"])
	got := search()
	if len(got) == 0 || !strings.HasSuffix(got[0], "daily/2026-03-14.md") {
		t.Fatalf("after SessionStart's background index: %v", got)
	}
}
