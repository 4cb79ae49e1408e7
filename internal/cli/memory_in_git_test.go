package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
)

// TestMemoryIsPlainFilesInTheProjectsGit runs what a person does: git init
// a project, switch long-term memory on (what /memory_long_active on
// runs), let memory be written (a session's hooks, a remember, a page),
// then `git add -A && git commit` in the project. The project's commit
// holds the memory as plain files — no embedded repository (a .git under
// .claude would make git stage a gitlink instead), no cerebro lock, cache
// or state file — while memory's own history of commits lives outside
// the folders the project's git sees.
func TestMemoryIsPlainFilesInTheProjectsGit(t *testing.T) {
	h := newHookEnv(t)
	os.RemoveAll(filepath.Join(h.proj, ".git"))
	project, err := gitrepo.Init(h.proj)
	if err != nil {
		t.Fatal(err)
	}
	h.turn(t, "s1", "Please add the parser.", "I added the parser in internal/parse.")
	h.turn(t, "s1", "Now test it.", "The parser's tests pass.")
	h.hook(t, "session-end", h.input("s1", "SessionEnd", "reason", "other"))
	for _, args := range [][]string{
		{"long", "on", "--project", h.proj},
		{"remember", "--project", h.proj, "The parser lives in internal/parse."},
	} {
		if _, errOut, code := run(t, h.env, "", args...); code != 0 {
			t.Fatalf("memhook %v: exit %d: %s", args, code, errOut)
		}
	}
	if _, errOut, code := run(t, h.env, "# Parser\n\nIt lives in internal/parse.\n", "wiki", "write", "--project", h.proj, "wiki/Parser.md"); code != 0 {
		t.Fatalf("wiki write: exit %d: %s", code, errOut)
	}

	// git add -A && git status: what the project's git would stage.
	staged, err := project.Dirty("")
	if err != nil {
		t.Fatal(err)
	}
	var memory []string
	for p := range staged {
		if strings.Contains(p, "/.cerebro/") || strings.HasSuffix(p, ".lock") || strings.Contains(p, ".git/") {
			t.Errorf("the project's git stages cerebro's own file %s", p)
		}
		if strings.HasPrefix(p, ".claude/memory_long/") {
			memory = append(memory, p)
		}
	}
	if len(memory) == 0 || staged[".claude/memory_long/wiki/Parser.md"] == "" {
		t.Fatalf("the project's git does not see the long-term memory's files: %v", staged)
	}
	if len(filesUnder(t, h.proj, ".claude/memory_short/daily")) == 0 {
		t.Fatal("no daily file was written")
	}
	if len(filesUnder(t, h.proj, ".claude/.cerebro/locks")) == 0 || len(filesUnder(t, h.proj, ".claude/memory_long/records")) == 0 {
		t.Fatal("no lock was taken: the test would not see one staged")
	}
	filepath.WalkDir(filepath.Join(h.proj, ".claude"), func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == ".git" {
			t.Errorf("an embedded repository inside the project: %s", p)
		}
		return nil
	})
	paths := make([]string, 0, len(staged))
	for p := range staged {
		paths = append(paths, p)
	}
	if _, err := project.CommitPaths(paths, "share memory", time.Now()); err != nil {
		t.Fatal(err)
	}
	if st, err := project.PathState(".claude/memory_long"); err != nil || st != gitrepo.Tracked {
		t.Errorf(".claude/memory_long after the project's commit: %v, %v; want tracked", st, err)
	}

	// Memory's own history: commits on every change, out of the project's sight.
	own, err := gitrepo.OpenSeparate(filepath.Join(h.proj, ".claude", "memory_long"), longterm.GitDir(filepath.Join(h.proj, ".claude", "memory_long")))
	if err != nil {
		t.Fatalf("long-term memory's own history: %v", err)
	}
	if log, _ := own.Log("wiki/Parser.md", 0); len(log) == 0 {
		t.Error("the page written is not in long-term memory's own history")
	}
	if again, _ := project.Dirty(""); len(again) != 0 {
		t.Errorf("after the project's commit, git status still shows %v", again)
	}
}

func filesUnder(t *testing.T, root, rel string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(rel), "*"))
	return m
}
