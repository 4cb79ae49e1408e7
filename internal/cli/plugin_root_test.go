package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The checkout holding this memhook wins over CLAUDE_PLUGIN_ROOT, for
// doctor's version check (it is given pluginRoot) as for evolve and the
// commands: all ask pluginRoot, so they cannot disagree on which
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
	f := &Factory{System: System{Getenv: func(k string) string { return env[k] }, Executable: filepath.Join(own, "bin", "memhook")}}
	if got := f.pluginRoot(); got != own {
		t.Fatalf("pluginRoot = %q, want the memhook's own checkout %q", got, own)
	}

	// Without a manifest beside the binary, the environment's checkout.
	f.Executable = filepath.Join(t.TempDir(), "bin", "memhook")
	write(f.Executable, "")
	if got := f.pluginRoot(); got != other {
		t.Fatalf("pluginRoot = %q, want CLAUDE_PLUGIN_ROOT %q", got, other)
	}
}

// TestOneOwnerOfThePluginRoot fails when a second place works out the
// plugin's folder from CLAUDE_PLUGIN_ROOT itself. checkPluginCopy reads
// it for another question: which copy Claude Code runs the hooks from.
func TestOneOwnerOfThePluginRoot(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	allowed := map[string]int{"skill_files.go": 1}
	for _, p := range files {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(b), `Getenv("CLAUDE_PLUGIN_ROOT")`); n > allowed[p] {
			t.Errorf("%s reads CLAUDE_PLUGIN_ROOT %d times; ask f.pluginRoot()", p, n)
		}
	}
}
