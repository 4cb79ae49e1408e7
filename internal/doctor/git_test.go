package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
)

// doctor tells of each memory folder whether the project's repository
// commits it, ignores it, or neither (with a hint for both choices).
func TestCheckMemoryInGitTellsTheThreeStates(t *testing.T) {
	root := t.TempDir()
	repo, err := gitrepo.Init(root)
	if err != nil {
		t.Fatal(err)
	}
	write := func(rel, data string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	report := func() string {
		rep := &Report{}
		checkMemoryInGit(rep, root)
		var b strings.Builder
		for _, f := range rep.Findings {
			b.WriteString(f.Level + " " + f.What + " | " + f.Hint + "\n")
		}
		return b.String()
	}
	if out := report(); out != "" {
		t.Fatalf("no memory yet, yet doctor says:\n%s", out)
	}
	write(".claude/memory_short/daily/2026-11-30.md", "# day\n")
	write(".claude/memory_long/index.md", "# index\n")
	out := report()
	if !strings.Contains(out, "warn .claude/memory_short: neither committed nor ignored") || !strings.Contains(out, "add /.claude/memory_short/ to .gitignore") {
		t.Fatalf("untracked:\n%s", out)
	}
	if _, err := repo.CommitPaths([]string{".claude/memory_short"}, "memory", time.Now()); err != nil {
		t.Fatal(err)
	}
	write(".gitignore", "/.claude/memory_long/\n")
	out = report()
	for _, want := range []string{
		"ok .claude/memory_short: committed in the project's git repository",
		"ok .claude/memory_long: ignored by the project's git repository",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "warn") {
		t.Errorf("a warning for a folder in a chosen state:\n%s", out)
	}

	// A memory_long/.git an older cerebro made: sharing would stage a
	// gitlink, so the hint moves the history out first.
	os.WriteFile(filepath.Join(root, ".gitignore"), nil, 0o644)
	if _, err := gitrepo.Init(filepath.Join(root, ".claude", "memory_long")); err != nil {
		t.Fatal(err)
	}
	out = report()
	if !strings.Contains(out, "warn .claude/memory_long: holds a git repository of its own") || !strings.Contains(out, "memhook long log") {
		t.Errorf("an embedded repository is not named with the way out:\n%s", out)
	}
}
