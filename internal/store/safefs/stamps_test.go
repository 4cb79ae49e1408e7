package safefs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// LstatAll tells what os.Lstat of each joined path tells, a link as a
// link, a missing name as missing, and a name leaving the folder as
// refused; it stops when asked to.
func TestLstatAllAsLstat(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "daily"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "daily", "a.md"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "secret.md")
	if err := os.WriteFile(outside, []byte("a longer secret text"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	rels := []string{".", "daily", "daily/a.md", "link.md", "gone.md", "../x", "/etc/passwd"}
	var got []Stamp
	var errs []error
	if err := LstatAll(dir, rels, func(i int, s Stamp, err error) bool {
		got, errs = append(got, s), append(errs, err)
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(rels) {
		t.Fatalf("%d answers for %d names", len(got), len(rels))
	}
	for i, rel := range rels[:4] {
		fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil || errs[i] != nil {
			t.Fatalf("%s: %v / %v", rel, err, errs[i])
		}
		want := Stamp{ModTime: fi.ModTime().UnixNano(), Size: fi.Size(), IsDir: fi.IsDir(), Regular: fi.Mode().IsRegular()}
		if got[i] != want {
			t.Errorf("%s: %+v, want %+v", rel, got[i], want)
		}
	}
	if got[3].Regular || got[3].Size == int64(len("a longer secret text")) {
		t.Errorf("the link was followed: %+v", got[3])
	}
	if !errors.Is(errs[4], fs.ErrNotExist) {
		t.Errorf("a missing name: %v", errs[4])
	}
	for _, i := range []int{5, 6} {
		if !errors.Is(errs[i], ErrEscapes) {
			t.Errorf("%s: %v, want refused", rels[i], errs[i])
		}
	}
	n := 0
	LstatAll(dir, rels, func(int, Stamp, error) bool { n++; return n < 2 })
	if n != 2 {
		t.Errorf("asked to stop after 2, called %d times", n)
	}
	if err := LstatAll(filepath.Join(dir, "nope"), rels, func(int, Stamp, error) bool { return true }); err == nil {
		t.Error("a missing folder gave no error")
	}
}
