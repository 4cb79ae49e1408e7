package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLessonsCommandListsPinsAndRemoves(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	file := filepath.Join(proj, ".claude", "memory_short", "lessons.md")
	os.MkdirAll(filepath.Dir(file), 0o755)
	os.MkdirAll(filepath.Join(proj, ".git"), 0o755)
	lines := "- [fix] `run build.js` — `node assets/build.js` failed (Cannot find module) → worked: `cd assets && node build.js` (2026-11-29, .claude/memory_short/daily/2026-11-29.md)\n" +
		"- [warn] `git push` — `git push` failed, no fix known (rejected) (2026-11-28, .claude/memory_short/daily/2026-11-28.md)\n"
	if err := os.WriteFile(file, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": dir, "CEREBRO_STATE_DIR": filepath.Join(dir, "state"), "CEREBRO_CONFIG": filepath.Join(dir, "none.toml"),
		"CEREBRO_LESSONS_ENFORCE": "deny git push"}
	out, errOut, code := run(t, env, "", "lessons", "--project", proj)
	if code != 0 || !strings.Contains(out, "[fix] run build.js") || !strings.Contains(out, "reminded 0, heeded 0") ||
		!strings.Contains(out, "enforced by your settings (lessons.enforce): deny git push") {
		t.Fatalf("lessons: exit %d\n%s%s", code, out, errOut)
	}
	if _, errOut, code := run(t, env, "", "lessons", "pin", "run build.js", "--project", proj); code != 0 {
		t.Fatalf("pin: exit %d %s", code, errOut)
	}
	if _, errOut, code := run(t, env, "", "lessons", "rm", "git push", "--project", proj); code != 0 {
		t.Fatalf("rm: exit %d %s", code, errOut)
	}
	if _, errOut, code := run(t, env, "", "lessons", "rm", "no such", "--project", proj); code == 0 || !strings.Contains(errOut, "no such lesson") {
		t.Fatalf("rm of a missing key: exit %d %s", code, errOut)
	}
	out, _, _ = run(t, env, "", "lessons", "--json", "--project", proj)
	var got struct {
		Lessons []struct {
			Key    string
			Pinned bool
		} `json:"lessons"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Lessons) != 1 || got.Lessons[0].Key != "run build.js" || !got.Lessons[0].Pinned {
		t.Fatalf("after pin and rm: %v\n%s", err, out)
	}
	out, errOut, _ = run(t, env, "", "doctor", "--project", proj)
	if !strings.Contains(out+errOut, "lessons "+file+": 1 (0 retired), reminders on: shown 0, heeded 0, repeated anyway 0; 1 enforced by your settings") {
		t.Errorf("doctor does not report the lessons:\n%s%s", out, errOut)
	}
	data, _ := os.ReadFile(file)
	if !strings.Contains(string(data), "- pinned [fix] `run build.js`") || strings.Contains(string(data), "git push") {
		t.Fatalf("file after pin and rm:\n%s", data)
	}
}
