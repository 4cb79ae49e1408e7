package workdir

import (
	"os"
	"path/filepath"
	"testing"
)

// Two folders made with one prefix differ and have paths of one length;
// a copy holds the files and folders, not a link.
func TestFixedAndCopyTree(t *testing.T) {
	a, err := Fixed("cerebro-workdir-test-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(a)
	b, err := Fixed("cerebro-workdir-test-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(b)
	if a == b || len(a) != len(b) {
		t.Fatalf("folders %q and %q: want two of one length", a, b)
	}
	if err := os.MkdirAll(filepath.Join(a, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(a, "d", "f.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(a, "link")); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(b, "copy")
	if err := CopyTree(a, dst); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(dst, "d", "f.md")); err != nil || string(got) != "x" {
		t.Errorf("the file was not copied: %q %v", got, err)
	}
	if _, err := os.Lstat(filepath.Join(dst, "link")); !os.IsNotExist(err) {
		t.Errorf("the link was copied: %v", err)
	}
}
