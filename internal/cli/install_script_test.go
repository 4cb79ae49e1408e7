//go:build unix

package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// checkoutCopy lays out a checkout of the plugin in a temp dir — its
// scripts, plugin manifest and commands, and the memhook built for the
// tests in bin/ — so that scripts/install runs as `make install` runs it.
func checkoutCopy(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "cerebro")
	copyFile := func(src, dst string, mode os.FileMode) {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		testfile.Write(t, dst, string(data))
		if err := os.Chmod(dst, mode); err != nil {
			t.Fatal(err)
		}
	}
	repo := filepath.Join("..", "..")
	for _, f := range []string{"scripts/install", "scripts/uninstall", "scripts/memhook"} {
		copyFile(filepath.Join(repo, f), filepath.Join(root, f), 0o755)
	}
	for _, f := range []string{".claude-plugin/plugin.json", ".claude-plugin/marketplace.json"} {
		copyFile(filepath.Join(repo, f), filepath.Join(root, f), 0o644)
	}
	cmds, _ := filepath.Glob(filepath.Join(repo, "commands", "*.md"))
	for _, c := range cmds {
		copyFile(c, filepath.Join(root, "commands", filepath.Base(c)), 0o644)
	}
	copyFile(memhookBin, filepath.Join(root, "bin", "memhook"), 0o755)
	copyFile(hotBin, filepath.Join(root, "bin", "memhook-hot"), 0o755)
	return root
}

// TestInstallWithoutClaudeCodeSaysSoLastAndFails: on a machine without the
// claude CLI, scripts/install (what `make install` runs) still installs
// the short commands and the launcher, and its doctor warns of both, but
// it ends by saying plainly that the plugin is not installed, with the
// command that installs Claude Code, and exits 1 — not 0 with a warning
// lost on stderr above the doctor's report.
func TestInstallWithoutClaudeCodeSaysSoLastAndFails(t *testing.T) {
	root := checkoutCopy(t)
	home := t.TempDir()
	bin := scriptTools(t)
	cmd := exec.Command(filepath.Join(bin, "sh"), filepath.Join(root, "scripts", "install"))
	cmd.Env = []string{"HOME=" + home, "PATH=" + bin, "CEREBRO_STATE_DIR=" + filepath.Join(home, "state")}
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 {
		t.Fatalf("install without claude: %v, want exit 1\n%s", err, out)
	}
	text := strings.TrimRight(string(out), "\n")
	lines := strings.Split(text, "\n")
	last := strings.Join(lines[max(0, len(lines)-4):], "\n")
	for _, want := range []string{
		"install: NOT DONE: Claude Code is not installed (no claude on PATH), so the cerebro plugin is not installed in it",
		"install: install Claude Code:   npm install -g @anthropic-ai/claude-code",
		"install: then run again:        make install",
	} {
		if !strings.Contains(last, want) {
			t.Errorf("the last lines of install lack %q:\n%s", want, last)
		}
	}
	for _, want := range []string{
		"warn  claude CLI on PATH: missing",
		"warn  plugin: not installed in Claude Code",
		"installed the memhook launcher: " + filepath.Join(home, ".local", "bin", "memhook"),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("install output lacks %q:\n%s", want, text)
		}
	}
	if _, err := os.Stat(filepath.Join(home, ".claude", "commands", "recall.md")); err != nil {
		t.Errorf("the short commands were not installed: %v", err)
	}
}

// TestInstallAllowsTheReadOnlyToolsAndUninstallTakesThemBack: the
// install path adds memory_search and memory_get to the person's
// ~/.claude/settings.json (their own keys kept) and says so on one line;
// scripts/uninstall gives the file back as it was.
func TestInstallAllowsTheReadOnlyToolsAndUninstallTakesThemBack(t *testing.T) {
	root := checkoutCopy(t)
	home := t.TempDir()
	settings := filepath.Join(home, ".claude", "settings.json")
	person := "{\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(make test)\"\n    ],\n    \"defaultMode\": \"default\"\n  },\n  \"cleanupPeriodDays\": 30\n}\n"
	testfile.Write(t, settings, person)
	bin := scriptTools(t)
	env := []string{"HOME=" + home, "PATH=" + bin, "CEREBRO_STATE_DIR=" + filepath.Join(home, "state")}
	cmd := exec.Command(filepath.Join(bin, "sh"), filepath.Join(root, "scripts", "install"))
	cmd.Env = env
	out, _ := cmd.CombinedOutput() // exit 1: no claude here, checked above
	notice := "memory tools: added " + toolSearch + ", " + toolGet + " to permissions.allow in " + settings
	if !strings.Contains(string(out), notice) {
		t.Fatalf("install does not say what it allowed:\n%s", out)
	}
	if got := allowList(t, settings); strings.Join(got, " ") != "Bash(make test) "+toolSearch+" "+toolGet {
		t.Fatalf("allow after install = %v", got)
	}
	if !strings.Contains(string(out), "memory tools: memory_search, memory_get run without asking (allowed in "+settings+"); recall, remember ask") {
		t.Errorf("install's doctor does not see the rules:\n%s", out)
	}
	cmd = exec.Command(filepath.Join(bin, "sh"), filepath.Join(root, "scripts", "uninstall"))
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "removed "+toolSearch+", "+toolGet) {
		t.Fatalf("uninstall: %v\n%s", err, out)
	}
	if got := testfile.Read(t, settings); got != person {
		t.Fatalf("uninstall did not give back the person's settings:\n%s", got)
	}
}

// TestInstallEndsWithTheImportAdvice: with Claude Code present (a claude
// that accepts the plugin commands), install ends by saying it is done,
// then how to turn the sessions Claude Code already keeps into memory.
func TestInstallEndsWithTheImportAdvice(t *testing.T) {
	root := checkoutCopy(t)
	home := t.TempDir()
	bin := scriptTools(t)
	testfile.Write(t, filepath.Join(bin, "claude"), "#!"+filepath.Join(bin, "sh")+"\nexit 0\n")
	os.Chmod(filepath.Join(bin, "claude"), 0o755)
	cmd := exec.Command(filepath.Join(bin, "sh"), filepath.Join(root, "scripts", "install"))
	cmd.Env = []string{"HOME=" + home, "PATH=" + bin, "CEREBRO_STATE_DIR=" + filepath.Join(home, "state")}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("install with claude: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(lines[len(lines)-2], "install: done") || !strings.Contains(last, "memhook import turns the transcripts Claude Code already keeps") ||
		!strings.Contains(last, "memhook import --dry-run") {
		t.Fatalf("install does not end with the import's advice:\n%s", out)
	}
}

// scriptTools is a folder holding only the tools scripts/install uses, to
// be the PATH: whatever this machine has installed, claude is not there.
func scriptTools(t *testing.T) string {
	bin := t.TempDir()
	for _, tool := range []string{"sh", "dirname", "uname", "mkdir", "grep", "chmod", "mv", "rm", "cat", "sed", "printf"} {
		if p, err := exec.LookPath(tool); err == nil {
			os.Symlink(p, filepath.Join(bin, tool))
		}
	}
	return bin
}
