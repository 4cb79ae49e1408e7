package search

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestMemoryUpdateAndForget: Update indexes every existing root (a root
// not on disk has no index and no report), reports each with what its
// index holds, and a second run reads nothing again; Forget drops a
// removed file from its root's index at once, so a search no longer finds
// it, and ignores a folder that is no root.
func TestMemoryUpdateAndForget(t *testing.T) {
	base := t.TempDir()
	short, long := filepath.Join(base, "short"), filepath.Join(base, "long")
	write(t, filepath.Join(short, "daily", "2026-11-29.md"), "# 2026-11-29\n\nThe router firmware was updated.\n")
	write(t, filepath.Join(short, "daily", "2026-11-30.md"), "# 2026-11-30\n\nThe printer jammed.\n")
	m := &Memory{Base: base, IndexDir: t.TempDir(), Options: defaults(),
		Roots: []Root{{Dir: short, Kind: KindShort}, {Dir: long, Kind: KindLong}}}
	var reports []RootReport
	var seen int
	progress := func(r Root, done, total int) { seen++ }
	if err := m.Update(context.Background(), isoDay("2026-11-30"), progress, func(r RootReport) { reports = append(reports, r) }); err != nil {
		t.Fatal(err)
	}
	if len(reports) != 1 || reports[0].Root.Dir != short || reports[0].Files != 2 || reports[0].Stats.Indexed != 2 || !reports[0].Rebuilt || reports[0].Chunks == 0 || seen == 0 {
		t.Fatalf("first update: %+v (progress %d)", reports, seen)
	}
	reports = nil
	if err := m.Update(context.Background(), isoDay("2026-11-30"), nil, func(r RootReport) { reports = append(reports, r) }); err != nil {
		t.Fatal(err)
	}
	if len(reports) != 1 || reports[0].Stats.Indexed != 0 || reports[0].Rebuilt {
		t.Fatalf("second update read again: %+v", reports)
	}

	if err := os.Remove(filepath.Join(short, "daily", "2026-11-29.md")); err != nil {
		t.Fatal(err)
	}
	if err := m.Forget(context.Background(), t.TempDir(), "daily/2026-11-29.md", isoDay("2026-11-30")); err != nil {
		t.Fatalf("a folder that is no root: %v", err)
	}
	if err := m.Forget(context.Background(), short, "daily/2026-11-29.md", isoDay("2026-11-30")); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(m.IndexDir, m.Roots[0], m.Params)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	r, err := Search(context.Background(), []*Index{ix}, "router firmware", defaults())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Results) != 0 {
		t.Errorf("the forgotten file is still found: %v", paths(r))
	}
}
