package longterm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
)

// TestHistoryMovesAnEmbeddedRepositoryOut: a memory_long/.git an older
// cerebro made is moved to the git dir beside the memory, history and
// all; memory_long/ then holds no repository, and the next commit goes on
// top of the old ones. An older .gitignore gains the lock files' rule.
func TestHistoryMovesAnEmbeddedRepositoryOut(t *testing.T) {
	s := newProject(t)
	if _, err := s.WritePage("wiki/A.md", []byte("---\ntype: topic\n---\n# A\n"), now); err != nil {
		t.Fatal(err)
	}
	old, err := gitrepo.Init(s.Dir)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(s.Path(".gitignore"), []byte(ignoreHead+"\n.cerebro/\ngraph.json\n"), 0o644)
	first, err := old.CommitPaths([]string{"wiki", ".gitignore"}, "an older cerebro's commit", now)
	if err != nil {
		t.Fatal(err)
	}

	h, err := s.History(GitAuto, now)
	if err != nil || !h.Versioned() {
		t.Fatalf("history: %v (%s)", err, h.Note)
	}
	if _, err := os.Lstat(filepath.Join(s.Dir, ".git")); !os.IsNotExist(err) {
		t.Fatalf("memory_long/.git is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(GitDir(s.Dir), "HEAD")); err != nil {
		t.Fatalf("the history is not in %s: %v", GitDir(s.Dir), err)
	}
	if _, err := s.WritePage("wiki/B.md", []byte("---\ntype: topic\n---\n# B\n"), now); err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.CommitAll("pages", now); err != nil {
		t.Fatal(err)
	}
	log, err := h.Repo.Log("", 0)
	if err != nil || len(log) < 2 || log[len(log)-1].Hash != first {
		t.Fatalf("the old history does not go on: %+v, %v", log, err)
	}
	if b, _ := os.ReadFile(s.Path(".gitignore")); !strings.Contains(string(b), "\n"+lockIgnore+"\n") {
		t.Errorf("the older .gitignore did not gain %s:\n%s", lockIgnore, b)
	}
	if b, _ := os.ReadFile(filepath.Join(filepath.Dir(s.Dir), ".cerebro", ".gitignore")); !strings.Contains(string(b), "\n*\n") {
		t.Errorf("the folder of the history is not ignored by the project's git: %q", b)
	}
	// An older cerebro run after the move makes memory_long/.git again:
	// the history goes on where it is, and the left-over is named.
	if _, err := gitrepo.Init(s.Dir); err != nil {
		t.Fatal(err)
	}
	again, err := s.History(GitAuto, now)
	if err != nil || !again.Versioned() || !strings.Contains(again.Note, "left over") {
		t.Fatalf("with both: %v, note %q", err, again.Note)
	}
	if l, _ := again.Repo.Log("", 0); len(l) != len(log) {
		t.Errorf("with both, the history is not the moved one: %d commits, want %d", len(l), len(log))
	}
}
