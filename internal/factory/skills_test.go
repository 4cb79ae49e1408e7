package factory

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The checkout holding this memhook wins over CLAUDE_PLUGIN_ROOT, for
// doctor's version check (it is given PluginRoot) as for evolve and the
// commands: all ask PluginRoot, so they cannot disagree on which
// checkout runs.
func TestPluginRootHasOnePrecedence(t *testing.T) {
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	own, other := filepath.Join(t.TempDir(), "own"), filepath.Join(t.TempDir(), "other")
	write(filepath.Join(own, ".claude-plugin", "plugin.json"), `{"name":"cerebro","version":"7.7.7"}`)
	write(filepath.Join(own, "bin", "memhook"), "")
	write(filepath.Join(other, ".claude-plugin", "plugin.json"), `{"name":"cerebro","version":"8.8.8"}`)
	env := map[string]string{"CLAUDE_PLUGIN_ROOT": other}
	f := New(System{Getenv: func(k string) string { return env[k] }, Executable: filepath.Join(own, "bin", "memhook")})
	if got := f.PluginRoot(); got != own {
		t.Fatalf("PluginRoot = %q, want the memhook's own checkout %q", got, own)
	}

	// Without a manifest beside the binary, the environment's checkout.
	// (the folder is found once a run: another run, another factory)
	exe := filepath.Join(t.TempDir(), "bin", "memhook")
	write(exe, "")
	f = New(System{Getenv: func(k string) string { return env[k] }, Executable: exe})
	if got := f.PluginRoot(); got != other {
		t.Fatalf("PluginRoot = %q, want CLAUDE_PLUGIN_ROOT %q", got, other)
	}
}

// TestOneOwnerOfThePluginRoot fails when a second place among the front
// ends' composition (this package and cli) works out the plugin's folder
// from CLAUDE_PLUGIN_ROOT itself. doctor's checkPluginCopy reads it for
// another question: which copy Claude Code runs the hooks from.
func TestOneOwnerOfThePluginRoot(t *testing.T) {
	own, _ := filepath.Glob("*.go")
	cli, _ := filepath.Glob(filepath.Join("..", "cli", "*.go"))
	if len(cli) == 0 {
		t.Fatal("no files of internal/cli found beside this package")
	}
	allowed := map[string]int{"skills.go": 1}
	for _, p := range append(own, cli...) {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(b), `Getenv("CLAUDE_PLUGIN_ROOT")`); n > allowed[p] {
			t.Errorf("%s reads CLAUDE_PLUGIN_ROOT %d times; ask f.PluginRoot()", p, n)
		}
	}
}

// A skill is looked up in the folder named, else in the project's skills
// folders; only the second names the project, which a candidate needs.
func TestFindSkillInTheFolderNamedOrTheProject(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	for _, d := range []string{filepath.Join(proj, ".git"), filepath.Join(proj, ".claude", "skills", "use-memory"), filepath.Join(home, "mine", "mine")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"HOME": home, "CEREBRO_HOME": filepath.Join(home, "cerebro")}
	f := New(System{Getenv: func(k string) string { return env[k] }})
	ref, root, err := f.FindSkill("", proj, "use-memory")
	if err != nil || root != proj || ref.Dir() != filepath.Join(proj, ".claude", "skills", "use-memory") {
		t.Fatalf("in the project: %+v %q %v", ref, root, err)
	}
	ref, root, err = f.FindSkill(filepath.Join(home, "mine"), proj, "mine")
	if err != nil || root != "" || ref.Name != "mine" {
		t.Fatalf("in --skills-dir: %+v %q %v", ref, root, err)
	}
	_, _, err = f.FindSkill("", proj, "mine")
	var h interface{ Hint() string }
	if err == nil || !errors.As(err, &h) || !strings.Contains(h.Hint(), "--skills-dir") {
		t.Fatalf("a skill the project lacks: %v", err)
	}
}
