package gitrepo

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestDirtyAndTracks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r, err := Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	write := func(rel, s string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".gitignore", "cache/\n")
	write("mem/a.md", "a\n")
	write("cache/x", "x\n")
	if ok, _ := r.Tracks("mem"); ok {
		t.Fatal("an empty repository tracks mem/")
	}
	d, err := r.Dirty("")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := d["cache/x"]; ok || len(d) != 2 || d["mem/a.md"] == "" {
		t.Fatalf("dirty: %v", d)
	}
	if _, err := r.CommitPaths([]string{".gitignore", "mem/a.md"}, "first", time.Now()); err != nil {
		t.Fatal(err)
	}
	if ok, _ := r.Tracks("mem"); !ok {
		t.Fatal("mem/ is tracked now")
	}
	if d, _ := r.Dirty(""); len(d) != 0 {
		t.Fatalf("dirty after commit: %v", d)
	}
	write("mem/a.md", "b\n")
	os.Remove(filepath.Join(dir, ".gitignore"))
	d, _ = r.Dirty("mem")
	if len(d) != 1 || d["mem/a.md"] == "" {
		t.Fatalf("dirty under mem: %v", d)
	}
	d, _ = r.Dirty("")
	if h, ok := d[".gitignore"]; !ok || h != "" {
		t.Fatalf("a deleted file is not dirty with an empty hash: %v", d)
	}
}
