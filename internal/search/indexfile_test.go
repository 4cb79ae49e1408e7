package search

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A daily file a flush wrote is searchable at once, with nothing else of
// its root read (IndexFile), and a file in a hidden folder is not indexed.
func TestIndexFileMakesAFlushSearchable(t *testing.T) {
	base := t.TempDir()
	short := filepath.Join(base, "short")
	write(t, filepath.Join(short, "daily", "2026-11-29.md"), "# 2026-11-29\n\nThe router firmware was updated.\n")
	m := &Memory{Base: base, IndexDir: t.TempDir(), Options: defaults(), Roots: []Root{{Dir: short, Kind: KindShort}}}
	if err := m.Update(context.Background(), now, nil, func(RootReport) {}); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(short, "daily", "2026-11-30.md")
	write(t, fresh, "# 2026-11-30\n\nThe quokka pipeline was renamed.\n")
	hidden := filepath.Join(short, ".trash", "2026-11-30.md")
	write(t, hidden, "# trash\n\nThe quokka pipeline, forgotten.\n")
	for _, f := range []string{fresh, hidden} {
		if err := m.IndexFile(context.Background(), f, now); err != nil {
			t.Fatal(err)
		}
	}
	ix, err := OpenIndexed(m.IndexDir, m.Roots[0], m.Params)
	if err != nil || ix == nil {
		t.Fatalf("open: %v %v", ix, err)
	}
	defer ix.Close()
	r, err := Search(context.Background(), []*Index{ix}, "quokka pipeline", defaults())
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(r); len(got) != 1 || filepath.Base(got[0]) != "2026-11-30.md" || filepath.Base(filepath.Dir(got[0])) != "daily" {
		t.Fatalf("results %v", got)
	}
}

// The per-root index files and the catalog of before the desk index are
// removed when the desk index is made; other files stay.
func TestDeskIndexRemovesTheOldIndexes(t *testing.T) {
	dir := t.TempDir()
	old := []string{"0123456789abcdef.sqlite", "0123456789abcdef.sqlite-wal", "catalog.sqlite", "catalog.sqlite-shm"}
	keep := []string{"notes.txt", "0123456789abcdeg.sqlite"}
	for _, n := range append(old, keep...) {
		write(t, filepath.Join(dir, n), "x")
	}
	root := filepath.Join(t.TempDir(), "short")
	write(t, filepath.Join(root, "a.md"), "# A\n")
	ix, err := Open(dir, Root{Dir: root, Kind: KindShort}, Params{})
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()
	for _, n := range old {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			t.Errorf("%s is still there", n)
		}
	}
	for _, n := range append(keep, deskFile) {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
}
