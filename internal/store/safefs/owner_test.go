package safefs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneOwnerOfBoundedReads fails when a bounded read grows a second
// owner (a package's own readBounded) or when the CLI opens a file past
// this package with a plain os.Open: ReadFile with its limit is the one
// way to read a file cerebro did not write itself.
func TestOneOwnerOfBoundedReads(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s := string(b)
		if strings.Contains(s, "func readBounded(") {
			t.Errorf("%s has its own readBounded; use safefs.ReadFile with a limit", p)
		}
		if rel := filepath.ToSlash(p); strings.Contains(rel, "/cli/") && strings.Contains(s, "os.Open(") {
			t.Errorf("%s opens a file with os.Open; use safefs.Open or safefs.ReadFile", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
