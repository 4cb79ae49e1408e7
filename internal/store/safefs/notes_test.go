package safefs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestNotesReadsAsReadNote: notes read through one Notes, over more
// folders than it keeps open, read as ReadNote reads them; a link where a
// note should be is refused, a missing note is fs.ErrNotExist, and a note
// over the limit is refused.
func TestNotesReadsAsReadNote(t *testing.T) {
	root, outside := project(t)
	mem := filepath.Join(root, ".claude", "memory_short")
	var paths []string
	for i := 0; i < 2*maxNoteDirs+3; i++ {
		dir := filepath.Join(mem, fmt.Sprintf("d%02d", i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "note.md")
		if err := os.WriteFile(p, []byte(fmt.Sprintf("note %d\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	var n Notes
	defer n.Close()
	for round := 0; round < 2; round++ {
		for i, p := range paths {
			got, err := n.Read(p, 0)
			if err != nil {
				t.Fatalf("read %s: %v", p, err)
			}
			if want := fmt.Sprintf("note %d\n", i); string(got) != want {
				t.Fatalf("read %s: %q, want %q", p, got, want)
			}
		}
	}
	if _, err := n.Read(filepath.Join(mem, "d00", "gone.md"), 0); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing note: %v, want fs.ErrNotExist", err)
	}
	if _, err := n.Read(filepath.Join(mem, "gone", "note.md"), 0); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("note of a missing folder: %v, want fs.ErrNotExist", err)
	}
	if _, err := n.Read(paths[0], 3); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("note over the limit: %v, want ErrTooLarge", err)
	}
	if runtime.GOOS == "windows" {
		return
	}
	link := filepath.Join(mem, "d00", "link.md")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	if _, err := n.Read(link, 0); err == nil || !Refused(err) {
		t.Fatalf("link to a file outside: %v, want refused", err)
	}
}
