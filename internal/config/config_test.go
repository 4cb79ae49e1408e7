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

	e := Load(env, proj)
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

// A typo never costs capture: the bad key falls back to its default, the
// file's other keys still apply, and the warning names the key.
func TestBadValuesFallBackPerKey(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	os.MkdirAll(filepath.Join(proj, ".claude"), 0o755)
	cases := []struct {
		name, file string
		env        map[string]string
		check      func(e *Effective) bool
		warn       []string
	}{
		{"unquoted word breaks the TOML", "[short]\nflush_chars = lots\nflush_replies = 7\n", nil,
			func(e *Effective) bool { return e.Short.FlushChars == 12000 && e.Short.FlushReplies == 7 },
			[]string{"flush_chars = lots", "does not parse"}},
		{"string for a number", "[short]\nflush_chars = \"lots\"\nmin_replies = 2\n", nil,
			func(e *Effective) bool { return e.Short.FlushChars == 12000 && e.Short.MinReplies == 2 },
			[]string{"short.flush_chars", "want a whole number", "default 12000"}},
		{"negative", "[short]\nflush_chars = -5\n", nil,
			func(e *Effective) bool { return e.Short.FlushChars == 12000 },
			[]string{"short.flush_chars = -5", "out of range 200..1e+06"}},
		{"huge", "[hook]\ndeadline_ms = 999999999\n", nil,
			func(e *Effective) bool { return e.Hook.DeadlineMS == 4000 },
			[]string{"hook.deadline_ms", "out of range"}},
		{"unknown key and section", "[short]\nflush_charz = 1\n[nope]\nx = 1\n", nil,
			func(e *Effective) bool { return e.Short.FlushChars == 12000 },
			[]string{`unknown key "short.flush_charz"`, `unknown key "nope.x"`}},
		{"bad kind", "[distiller]\nkind = \"gpt\"\n", nil,
			func(e *Effective) bool { return e.Distiller.Kind == "extractive" },
			[]string{"distiller.kind", "extractive|claude"}},
		{"bad env", "", map[string]string{"CEREBRO_SHORT_FLUSH_CHARS": "abc", "CEREBRO_SHORT_FLUSH_REPLIES": "3"},
			func(e *Effective) bool { return e.Short.FlushChars == 12000 && e.Short.FlushReplies == 3 },
			[]string{"CEREBRO_SHORT_FLUSH_CHARS", "want a whole number"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			os.WriteFile(ProjectFile(proj), []byte(c.file), 0o644)
			env := map[string]string{"CEREBRO_CONFIG": filepath.Join(dir, "none")}
			for k, v := range c.env {
				env[k] = v
			}
			e := Load(mapEnv(env), proj)
			if !c.check(e) {
				t.Errorf("values: %+v %+v", e.Short, e.Distiller)
			}
			all := strings.Join(e.Warnings, "\n")
			for _, w := range c.warn {
				if !strings.Contains(all, w) {
					t.Errorf("warnings %q lack %q", all, w)
				}
			}
		})
	}
}

func TestPlantedConfigFileIsRefused(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	os.MkdirAll(filepath.Join(proj, ".claude"), 0o755)
	if err := os.Symlink("/dev/zero", ProjectFile(proj)); err != nil {
		t.Skip(err)
	}
	e := Load(mapEnv(map[string]string{"CEREBRO_CONFIG": filepath.Join(dir, "none")}), proj)
	if e.Short.FlushChars != 12000 || len(e.Warnings) != 1 || !strings.Contains(e.Warnings[0], "symbolic link") {
		t.Fatalf("warnings %v", e.Warnings)
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
