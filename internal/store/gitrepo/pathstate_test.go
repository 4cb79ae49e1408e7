package gitrepo

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestPathState(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r, err := Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	write := func(rel, data string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	state := func(rel string) PathState {
		t.Helper()
		st, err := r.PathState(rel)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	write(".claude/memory_short/daily/2026-11-30.md", "# day\n")
	write(".claude/memory_long/index.md", "# index\n")
	if st := state(".claude/memory_short"); st != Untracked {
		t.Fatalf("new folder: %v", st)
	}
	if _, err := r.CommitPaths([]string{".claude/memory_short"}, "memory", time.Now()); err != nil {
		t.Fatal(err)
	}
	if st := state(".claude/memory_short"); st != Tracked {
		t.Fatalf("committed folder: %v", st)
	}
	if st := state(".claude/memory_long"); st != Untracked {
		t.Fatalf("uncommitted sibling: %v", st)
	}
	write(".gitignore", "/.claude/memory_long/\n")
	if st := state(".claude/memory_long"); st != Ignored {
		t.Fatalf("ignored folder: %v", st)
	}
	write(".gitignore", ".claude/\n")
	if st := state(".claude/memory_long"); st != Ignored {
		t.Fatalf("folder under an ignored one: %v", st)
	}
	if st := state(".claude/memory_short"); st != Tracked {
		t.Fatalf("tracked files stay tracked under an ignore rule: %v", st)
	}
}
