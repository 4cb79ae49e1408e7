package cli

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readBuiltins reads testdata/claude-code-builtins.txt.
func readBuiltins(t *testing.T) map[string]bool {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "claude-code-builtins.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out[l] = true
		}
	}
	return out
}

// PluginCommandNames lists every name cerebro puts in Claude Code's /
// menu: its skills (shown without the plugin prefix), its commands and the
// short user-level commands.
func pluginCommandNames(t *testing.T) map[string]string {
	t.Helper()
	names := map[string]string{}
	skills, err := os.ReadDir(filepath.Join("..", "..", "skills"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range skills {
		if d.IsDir() {
			names[d.Name()] = "skill"
		}
	}
	cmds, _ := filepath.Glob(filepath.Join("..", "..", "commands", "*.md"))
	for _, c := range cmds {
		names[strings.TrimSuffix(filepath.Base(c), ".md")] = "command"
	}
	for _, n := range ShortCommands {
		names[n] = "short command"
	}
	if len(names) < 15 {
		t.Fatalf("found only %d names; the listing is broken", len(names))
	}
	return names
}

// A plugin must never shadow a built-in: the skill once named "memory"
// took /memory away from Claude Code's "Open a memory file".
func TestNoNameShadowsABuiltinCommand(t *testing.T) {
	builtins := readBuiltins(t)
	if !builtins["memory"] || !builtins["doctor"] || len(builtins) < 100 {
		t.Fatalf("the built-in list is broken (%d names)", len(builtins))
	}
	for name, kind := range pluginCommandNames(t) {
		if builtins[name] {
			t.Errorf("the %s %q has the name of a Claude Code built-in command: /%s would be shadowed", kind, name, name)
		}
	}
}
