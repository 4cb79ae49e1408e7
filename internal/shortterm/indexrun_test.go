package shortterm

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/project"
)

// TestSessionStartStartsOneBackgroundIndex: a SessionStart starts the
// project's background index; while that run holds the slot, the next
// SessionStarts start none; once it ends (IndexRun releases the slot), or
// once a run that died is past the window, the next one starts again.
func TestSessionStartStartsOneBackgroundIndex(t *testing.T) {
	f := newMemory(t)
	os.MkdirAll(filepath.Join(f.root, ".claude", "memory_short", "daily"), 0o755)
	f.m.Now = func() time.Time { return f.now } // the fixture's clock moves a minute a call
	var spawned [][]string
	f.m.Spawn = func(dir string, args []string) (int, error) {
		spawned = append(spawned, args)
		return 4242, nil
	}
	var indexed []string
	f.m.IndexProject = func(ctx context.Context, root string) error {
		if _, ok := ctx.Deadline(); !ok {
			t.Error("the background index runs without a budget")
		}
		indexed = append(indexed, root)
		return nil
	}
	f.start(t, "s1", "startup")
	f.start(t, "s2", "startup")
	f.start(t, "s1", "clear")
	if len(spawned) != 1 || spawned[0][0] != "index" || spawned[0][1] != "--background" {
		t.Fatalf("spawned %v, want one background index", spawned)
	}
	if err := f.m.IndexRun(context.Background(), f.root); err != nil {
		t.Fatal(err)
	}
	if len(indexed) != 1 || indexed[0] != f.root {
		t.Fatalf("indexed %v", indexed)
	}
	f.start(t, "s3", "startup")
	if len(spawned) != 2 {
		t.Fatalf("after the run ended: %d spawned, want 2", len(spawned))
	}
	// the second run dies without a word: past the window, the slot is free
	f.now = f.now.Add(indexWindow)
	f.start(t, "s4", "startup")
	if len(spawned) != 3 {
		t.Fatalf("past a dead run's window: %d spawned, want 3", len(spawned))
	}
	if _, err := os.Stat(f.m.indexSlot(project.ID(f.root))); err != nil {
		t.Fatalf("the running index holds no slot: %v", err)
	}
}

// TestSessionStartWithoutMemoryStartsNoIndex: a project with neither
// short- nor long-term memory has nothing of its own to index.
func TestSessionStartWithoutMemoryStartsNoIndex(t *testing.T) {
	f := newMemory(t)
	os.MkdirAll(f.root, 0o755)
	n := 0
	f.m.Spawn = func(string, []string) (int, error) { n++; return 1, nil }
	f.m.IndexProject = func(context.Context, string) error { return nil }
	f.start(t, "s1", "startup")
	if n != 0 {
		t.Fatalf("%d processes started for a project without memory", n)
	}
}
