//go:build unix

package transcript

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// A transcript path from hook input may name anything: special files are
// refused without blocking and a file with no line end costs one bounded
// window, read after read.
func TestHostileTranscriptPaths(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs or /dev/zero")
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "zero.jsonl")
	os.Symlink("/dev/zero", link)
	for _, p := range []string{fifo, "/dev/zero"} {
		if _, _, err := Read(p, 0, 1<<20); !errors.Is(err, safefs.ErrNotRegular) {
			t.Errorf("%s: err = %v, want ErrNotRegular", p, err)
		}
	}
	if _, _, err := Read(link, 0, 1<<20); !errors.Is(err, safefs.ErrSymlink) {
		t.Errorf("link to /dev/zero: err = %v", err)
	}

	old := MaxLineBytes
	MaxLineBytes = 1 << 20
	defer func() { MaxLineBytes = old }()
	sparse := filepath.Join(dir, "sparse.jsonl")
	f, _ := os.Create(sparse)
	f.WriteString(`{"type":"user","message":{"role":"user","content":"hi"},"uuid":"u1"}` + "\n")
	f.Truncate(1 << 30)
	f.Close()
	items, next, err := Read(sparse, 0, 64<<10)
	if err != nil || len(items) != 1 {
		t.Fatalf("first line: %v items, err %v", len(items), err)
	}
	items, again, err := Read(sparse, next, 64<<10)
	if err != nil || len(items) != 0 || again != next {
		t.Fatalf("endless line: %d items, next %d (want %d), err %v", len(items), again, next, err)
	}
}
