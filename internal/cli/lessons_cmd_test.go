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
	// through its run function (its command lines: options_test.go)
	lessonsWith := func(action, key string, asJSON bool) (string, error) {
		f, out := testFactory(env)
		err := lessonsRun(&LessonsOptions{Out: f.Out, ProjectRoot: f.ProjectRoot, Config: f.Config, State: f.Paths.State,
			Action: action, Key: key, Project: proj, JSON: asJSON})
		return out.String(), err
	}
	out, err := lessonsWith("", "", false)
	if err != nil || !strings.Contains(out, "[fix] run build.js") || !strings.Contains(out, "reminded 0, heeded 0") ||
		!strings.Contains(out, "enforced by your settings (lessons.enforce): deny git push") {
		t.Fatalf("lessons: %v\n%s", err, out)
	}
	if _, err := lessonsWith("pin", "run build.js", false); err != nil {
		t.Fatalf("pin: %v", err)
	}
	if _, err := lessonsWith("rm", "git push", false); err != nil {
		t.Fatalf("rm: %v", err)
	}
	if _, err := lessonsWith("rm", "no such", false); err == nil || !strings.Contains(err.Error(), "no such lesson") {
		t.Fatalf("rm of a missing key: %v", err)
	}
	out, _ = lessonsWith("", "", true)
	var got struct {
		Lessons []struct {
			Key    string
			Pinned bool
		} `json:"lessons"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Lessons) != 1 || got.Lessons[0].Key != "run build.js" || !got.Lessons[0].Pinned {
		t.Fatalf("after pin and rm: %v\n%s", err, out)
	}
	out, errOut, _ := run(t, env, "", "doctor", "--project", proj)
	if !strings.Contains(out+errOut, "lessons "+file+": 1 (0 retired), reminders on: shown 0, heeded 0, repeated anyway 0; 1 enforced by your settings") {
		t.Errorf("doctor does not report the lessons:\n%s%s", out, errOut)
	}
	data, _ := os.ReadFile(file)
	if !strings.Contains(string(data), "- pinned [fix] `run build.js`") || strings.Contains(string(data), "git push") {
		t.Fatalf("file after pin and rm:\n%s", data)
	}
}
