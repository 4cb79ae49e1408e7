package config

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The text names the files, every key with its source, what the project
// file could not set, and how the environment overrides a key; the JSON
// report carries the same.
func TestEffectiveWriteText(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	os.MkdirAll(filepath.Join(proj, ".claude"), 0o755)
	os.WriteFile(filepath.Join(proj, ".claude", "cerebro.toml"), []byte("[serve]\nallow_remote = true\n[short]\nflush_chars = 5000\n"), 0o644)
	e := Load(mapEnv(map[string]string{"CEREBRO_CONFIG": filepath.Join(dir, "none")}), proj)
	p := Paths{Home: filepath.Join(dir, "desk"), State: filepath.Join(dir, "state")}
	var b bytes.Buffer
	if err := e.WriteText(&b, p); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{
		"project file: " + ProjectFile(proj) + " (may only narrow the user's settings)\n",
		"cerebro home: " + p.Home + "\n", "KEY", "short.flush_chars",
		"Ignored in the project file (the user's value applies):\n  ",
		"e.g. " + EnvName("short.flush_chars") + ".\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	r := e.Report(p)
	if r["state_dir"] != p.State || r["project_trusted"] != false || len(r["ignored"].([]string)) == 0 {
		t.Errorf("report: %v", r)
	}
}
