package capture

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// A journal line far longer than Capture writes is skipped, its bytes
// still counted so the cursor moves past it; the lines around it read.
func TestReadJournalSkipsAnOverlongLine(t *testing.T) {
	x := Store{Root: t.TempDir()}.Session("p", "s")
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	if _, err := x.Capture(now, "user", "first", Meta{}); err != nil {
		t.Fatal(err)
	}
	long := `{"r":"user","t":"` + strings.Repeat("x", maxJournalLine) + `"}` + "\n"
	f, _ := os.OpenFile(x.JournalPath(), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(long)
	f.Close()
	if _, err := x.Capture(now, "user", "second", Meta{}); err != nil {
		t.Fatal(err)
	}
	entries, end, err := x.ReadJournal(0)
	if err != nil || len(entries) != 2 || entries[0].Text != "first" || entries[1].Text != "second" {
		t.Fatalf("entries %d, %v; want first and second only", len(entries), err)
	}
	fi, _ := os.Stat(x.JournalPath())
	if end != fi.Size() {
		t.Fatalf("read up to %d of %d bytes", end, fi.Size())
	}
}

// A journal that is a link elsewhere is refused, never read.
func TestReadJournalRefusesALink(t *testing.T) {
	root := t.TempDir()
	x := Store{Root: root}.Session("p", "s")
	other := filepath.Join(root, "other.jsonl")
	os.WriteFile(other, []byte(`{"r":"user","t":"not ours","ts":"2026-12-01T09:00:00Z"}`+"\n"), 0o600)
	os.MkdirAll(filepath.Dir(x.JournalPath()), 0o755)
	if err := os.Symlink(other, x.JournalPath()); err != nil {
		t.Skip("no symlinks here:", err)
	}
	entries, _, err := x.ReadJournal(0)
	if !errors.Is(err, safefs.ErrSymlink) || len(entries) != 0 {
		t.Fatalf("a linked journal read %d entries, err %v", len(entries), err)
	}
}
