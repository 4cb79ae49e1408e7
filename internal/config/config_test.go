package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func mapEnv(m map[string]string) Env { return func(k string) string { return m[k] } }

func TestLoadLayers(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user.toml")
	os.WriteFile(user, []byte("[short]\nflush_chars = 500\nflush_replies = 7\n[bogus]\nx = 1\n"), 0o644)
	proj := filepath.Join(dir, "proj")
	os.MkdirAll(filepath.Join(proj, ".claude"), 0o755)
	os.WriteFile(ProjectFile(proj), []byte("[short]\nflush_replies = 9\n"), 0o644)
	env := mapEnv(map[string]string{"CEREBRO_CONFIG": user, "CEREBRO_INJECT_MAX_CHARS": "1234", "HOME": dir})

	e, err := Load(env, proj)
	if err != nil {
		t.Fatal(err)
	}
	if e.Short.FlushChars != 500 || e.Short.FlushReplies != 9 || e.Inject.MaxChars != 1234 || e.Short.MinReplies != 4 {
		t.Fatalf("got %+v %+v", e.Short, e.Inject)
	}
	for key, want := range map[string]string{
		"short.flush_chars":   SourceUser,
		"short.flush_replies": SourceProject,
		"inject.max_chars":    SourceEnv,
		"short.min_replies":   SourceDefault,
	} {
		if got := e.Source(key); !strings.HasPrefix(got, want) {
			t.Errorf("Source(%s) = %q, want prefix %q", key, got, want)
		}
	}
	if len(e.Warnings) != 1 || !strings.Contains(e.Warnings[0], "bogus") {
		t.Errorf("warnings = %v, want one about the unknown key", e.Warnings)
	}
	if n := len(e.Settings()); n < 30 {
		t.Errorf("Settings lists %d keys, want every key", n)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("[short\n"), 0o644)
	if _, err := Load(mapEnv(map[string]string{"CEREBRO_CONFIG": bad}), ""); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("broken file: err = %v, want one naming the file", err)
	}
	if _, err := Load(mapEnv(map[string]string{"CEREBRO_CONFIG": filepath.Join(dir, "none"), "CEREBRO_SHORT_FLUSH_CHARS": "many"}), ""); err == nil || !strings.Contains(err.Error(), "CEREBRO_SHORT_FLUSH_CHARS") {
		t.Errorf("bad env: err = %v, want one naming the variable", err)
	}
}

func TestResolvePaths(t *testing.T) {
	p := ResolvePaths(mapEnv(map[string]string{"HOME": "/h", "CLAUDE_PLUGIN_DATA": "/data"}))
	if p.Home != filepath.Join("/h", "cerebro") || p.State != "/data" {
		t.Fatalf("got %+v", p)
	}
	if p.Registry() != filepath.Join("/h", "cerebro", ".claude", "memory_short", "registry.json") {
		t.Fatalf("registry = %s", p.Registry())
	}
	p = ResolvePaths(mapEnv(map[string]string{"HOME": "/h", "CEREBRO_HOME": "/desk", "CEREBRO_STATE_DIR": "/st"}))
	if p.Home != "/desk" || p.State != "/st" {
		t.Fatalf("got %+v", p)
	}
}

// A terminal run uses one documented state dir whatever ran last: the
// installed plugin's, never the --plugin-dir one because it was used more
// recently; FindStateDirs lists both for doctor.
func TestResolvePathsNeverSwitchesStateDirSilently(t *testing.T) {
	home := t.TempDir()
	inline := filepath.Join(home, ".claude", "plugins", "data", "cerebro-inline")
	installed := filepath.Join(home, ".claude", "plugins", "data", "cerebro-cerebro")
	os.MkdirAll(filepath.Join(inline, "logs"), 0o755)
	os.MkdirAll(filepath.Join(installed, "logs"), 0o755)
	os.MkdirAll(filepath.Join(home, ".claude", "plugins", "data", "other-x"), 0o755)
	old := time.Now().Add(-time.Hour)
	os.WriteFile(filepath.Join(installed, "logs", "hooks.log"), []byte("x"), 0o644)
	os.Chtimes(filepath.Join(installed, "logs", "hooks.log"), old, old)
	os.Chtimes(installed, old, old)
	os.WriteFile(filepath.Join(inline, "logs", "hooks.log"), []byte("x"), 0o644)
	p := ResolvePaths(mapEnv(map[string]string{"HOME": home}))
	if p.State != installed || !strings.Contains(p.StateWhy, "default") {
		t.Fatalf("state = %s (%s), want the installed plugin's %s although --plugin-dir's was used later", p.State, p.StateWhy, installed)
	}
	if got := ResolvePaths(mapEnv(map[string]string{"HOME": home, "CEREBRO_STATE_DIR": "/st"})); got.State != "/st" || got.StateWhy != "CEREBRO_STATE_DIR" {
		t.Fatalf("an explicit state dir must win, got %+v", got)
	}
	fresh := t.TempDir()
	if got := ResolvePaths(mapEnv(map[string]string{"HOME": fresh})).State; got != filepath.Join(fresh, ".claude", "plugins", "data", "cerebro-cerebro") {
		t.Fatalf("on a fresh HOME: %s", got)
	}
	found := FindStateDirs(mapEnv(map[string]string{"HOME": home}))
	var dirs []string
	for _, f := range found {
		dirs = append(dirs, f.Dir)
		if f.Dir == inline && time.Since(f.LastUse) > time.Minute {
			t.Errorf("last use of %s = %v, want the hook log's write", inline, f.LastUse)
		}
	}
	if len(found) != 2 || !slices.Contains(dirs, inline) || !slices.Contains(dirs, installed) {
		t.Errorf("FindStateDirs = %v, want the two cerebro data dirs", dirs)
	}
}
