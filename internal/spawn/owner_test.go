package spawn

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneOwnerOfDetachedStarts fails when a second place sets a process
// to outlive its caller itself instead of calling Start or Detach.
func TestOneOwnerOfDetachedStarts(t *testing.T) {
	root := filepath.Join("..")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || filepath.Base(filepath.Dir(p)) == "spawn" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if s := string(b); strings.Contains(s, "Setsid") || strings.Contains(s, "DETACHED_PROCESS") || strings.Contains(s, "0x00000008") {
			t.Errorf("%s detaches a process itself; use spawn.Start or spawn.Detach", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
