//go:build unix

package transcript

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// A transcript path from hook input may name anything: special files are
// refused without blocking and a file with no line end costs one bounded
// window, read after read, each passing over that much of it.
func TestHostileTranscriptPaths(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "zero.jsonl")
	os.Symlink("/dev/zero", link)
	for _, p := range []string{fifo, "/dev/zero"} {
		if _, _, err := (Reader{}).Read(p, 0, 1<<20); !errors.Is(err, safefs.ErrNotRegular) {
			t.Errorf("%s: err = %v, want ErrNotRegular", p, err)
		}
	}
	if _, _, err := (Reader{}).Read(link, 0, 1<<20); !errors.Is(err, safefs.ErrSymlink) {
		t.Errorf("link to /dev/zero: err = %v", err)
	}

	r := Reader{LineBytes: 1 << 20}
	sparse := filepath.Join(dir, "sparse.jsonl")
	f, _ := os.Create(sparse)
	f.WriteString(`{"type":"user","message":{"role":"user","content":"hi"},"uuid":"u1"}` + "\n")
	f.Truncate(1 << 30)
	f.Close()
	items, next, err := r.Read(sparse, 0, 64<<10)
	if err != nil || len(items) != 1 {
		t.Fatalf("first line: %v items, err %v", len(items), err)
	}
	items, again, err := r.Read(sparse, next, 64<<10)
	if err != nil || len(items) != 0 || again <= next || again-next > 64<<10+r.LineBytes {
		t.Fatalf("endless line: %d items, next %d (want past %d by at most one window), err %v", len(items), again, next, err)
	}
}

// A line over the line bound (a 40 MB tool output) is dropped, and the
// lines after it are read: one huge line never stops the rest of a
// session from being saved.
func TestOverlongLineIsPassedOver(t *testing.T) {
	t.Parallel()
	r := Reader{LineBytes: 1 << 20}
	path := filepath.Join(t.TempDir(), "t.jsonl")
	f, _ := os.Create(path)
	f.WriteString(`{"type":"user","message":{"role":"user","content":"before"},"uuid":"u1"}` + "\n")
	f.WriteString(`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"`)
	for i := 0; i < 40; i++ {
		f.WriteString(strings.Repeat("x", 1<<20))
	}
	f.WriteString(`"}]}}` + "\n")
	f.WriteString(`{"type":"user","message":{"role":"user","content":"after"},"uuid":"u2"}` + "\n")
	f.Close()
	var all []Item
	for pos, n := int64(0), 0; n < 100; n++ {
		items, next, err := r.Read(path, pos, 8<<20)
		if err != nil {
			t.Fatal(err)
		}
		all = Merge(all, items)
		if next == pos {
			break
		}
		pos = next
	}
	if len(all) != 2 || all[0].Text != "before" || all[1].Text != "after" {
		t.Fatalf("items %+v, want before and after", all)
	}
	tally, _, err := r.Count(path, 0, 0)
	if err != nil || len(tally.Messages) != 0 {
		t.Fatalf("count: %+v %v", tally.Messages, err)
	}
}

// Two readers with different line bounds in one process each keep their
// own: a 2 MiB line is dropped under a 1 MiB bound and read under 4 MiB,
// at the same time.
func TestReadersKeepTheirOwnLineBound(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "t.jsonl")
	line := `{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"` + strings.Repeat("x", 2<<20) + `"}]}}` + "\n"
	if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		bound int64
		items int
	}{{1 << 20, 0}, {4 << 20, 1}} {
		t.Run(fmt.Sprint(c.bound), func(t *testing.T) {
			t.Parallel()
			r := Reader{LineBytes: c.bound}
			items, _, err := r.Read(path, 0, 0)
			if err != nil || len(items) != c.items {
				t.Fatalf("bound %d: %d items, err %v; want %d", c.bound, len(items), err, c.items)
			}
			tally, _, err := r.Count(path, 0, 0)
			if err != nil || len(tally.Messages) != c.items {
				t.Fatalf("bound %d: counted %d, err %v; want %d", c.bound, len(tally.Messages), err, c.items)
			}
		})
	}
}
