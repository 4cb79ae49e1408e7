//go:build unix

package longterm

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestIngestRefusesSpecialAndOversizedSourcesBeforeCopying(t *testing.T) {
	s := newProject(t)
	dir := t.TempDir()
	big := filepath.Join(dir, "big.md")
	f, _ := os.Create(big)
	f.Truncate(3 << 30) // sparse: refused by its size, never read
	f.Close()
	cases := map[string]string{big: "over the ingest limit", "/dev/zero": "not a regular file"}
	if fifo := filepath.Join(dir, "pipe.md"); syscall.Mkfifo(fifo, 0o644) == nil {
		cases[fifo] = "not a regular file"
	}
	for p, want := range cases {
		if _, err := s.Ingest(p, 1<<20, 64<<20, now); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", p, err, want)
		}
	}
	if ents, _ := os.ReadDir(s.Path(RawDir)); len(ents) > 1 { // only _large/ may exist
		t.Errorf("a refused source left %v in raw/", ents)
	}
}
