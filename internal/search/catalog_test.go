package search

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// What the catalog keeps of an index's folders and recent files reads
// back as written, tells a changed file or folder, and a damaged record
// reads as none (the index is then read again).
func TestCatalogFreshnessRoundTrip(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "daily", "2026-11-30.md"), "# day\n")
	stat := func(rel string) os.FileInfo {
		fi, err := os.Lstat(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	day := stat("daily/2026-11-30.md")
	f := freshness{
		{rel: ".", mtime: stat(".").ModTime().UnixNano(), size: -1},
		{rel: "daily", mtime: stat("daily").ModTime().UnixNano(), size: -1},
		{rel: "daily/2026-11-30.md", mtime: day.ModTime().UnixNano(), size: day.Size()},
	}
	b := f.encode()
	got, ok := decodeFreshness(b)
	if !ok || len(got) != len(f) {
		t.Fatalf("decoded %v %v", got, ok)
	}
	for i := range f {
		if got[i] != f[i] {
			t.Errorf("stamp %d: %+v, want %+v", i, got[i], f[i])
		}
	}
	if !got.holds(root) {
		t.Fatal("an unchanged memory does not hold")
	}
	for n := 0; n < len(b); n++ {
		if _, ok := decodeFreshness(b[:n]); ok {
			t.Errorf("a record cut to %d of %d bytes reads", n, len(b))
		}
	}
	if (freshness{f[2]}).holds(root) {
		t.Error("no folder recorded, yet it holds")
	}
	later := time.Now().Add(time.Hour)
	os.WriteFile(filepath.Join(root, "daily", "2026-11-30.md"), []byte("# day\n- more\n"), 0o644)
	os.Chtimes(filepath.Join(root, "daily", "2026-11-30.md"), later, later)
	if got.holds(root) {
		t.Error("a file edited in place still holds")
	}
}

// fileKeys reads each index file's key as fileKey does, one by one: a
// file with a write-ahead log, one without, one missing.
func TestFileKeysAsFileKey(t *testing.T) {
	dir := t.TempDir()
	a, b, gone := filepath.Join(dir, "a.sqlite"), filepath.Join(dir, "b.sqlite"), filepath.Join(dir, "c.sqlite")
	write(t, a, "index a")
	write(t, a+"-wal", "its log")
	write(t, b, "index b")
	write(t, b+"-wal", "")
	keys := fileKeys(dir, []string{a, b, gone})
	for i, p := range []string{a, b, gone} {
		if want := fileKey(p); keys[i] != want {
			t.Errorf("%s: key %q, want %q", filepath.Base(p), keys[i], want)
		}
	}
	if keys[0] == "" || !strings.Contains(keys[0], "+") || strings.Contains(keys[1], "+") || keys[2] != "" {
		t.Errorf("keys %q: want a's with its log, b's without, none for the missing file", keys)
	}
}
