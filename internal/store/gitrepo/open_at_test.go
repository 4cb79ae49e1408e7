package gitrepo

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestOpenAtDoesNotClimb(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if _, err := Init(root); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(root, "vendor", "lib")
	os.MkdirAll(sub, 0o755)
	if _, err := Open(sub); err != nil {
		t.Fatalf("Open climbs to the repository: %v", err)
	}
	if _, err := OpenAt(sub); !errors.Is(err, ErrNoRepo) {
		t.Errorf("OpenAt(sub) = %v, want ErrNoRepo", err)
	}
	r, err := OpenAt(root)
	if err != nil || r.Root() != root {
		t.Errorf("OpenAt(root) = %v, %v", r, err)
	}
}
