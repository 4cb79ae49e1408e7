package atomicfile

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestReplace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "c.json")
	for _, content := range []string{"first\n", "second\n"} {
		if err := Replace(path, []byte(content), 0o640); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != content {
			t.Errorf("content = %q, want %q", got, content)
		}
	}
	if fi, _ := os.Stat(path); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o640 {
		t.Errorf("mode = %v", fi.Mode().Perm())
	}
	if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 1 {
		t.Errorf("temp files left: %v", ents)
	}
	if err := Replace(filepath.Join(path, "under-a-file"), []byte("x"), 0o644); err == nil {
		t.Error("replacing below a file succeeded")
	}
}
