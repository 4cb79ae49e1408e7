package runrec

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// A journal that is a link elsewhere is refused, never replayed.
func TestStoreRefusesALinkedJournal(t *testing.T) {
	j := Journal{Dir: t.TempDir()}
	other := Journal{Dir: t.TempDir()}
	other.Append(Run{ID: NewID(t0), Time: t0, Kind: KindRecall, Request: "someone else's"})
	if err := os.Symlink(other.Path(), j.Path()); err != nil {
		t.Skip("no symlinks here:", err)
	}
	s, err := OpenStore(j)
	if err == nil {
		s.Close()
		t.Fatal("a linked run journal was replayed")
	}
	if !errors.Is(err, safefs.ErrSymlink) {
		t.Fatalf("err = %v, want the symlink refusal", err)
	}
}

// An overlong line (not one a record writes) is skipped; the records
// around it replay.
func TestStoreSkipsAnOverlongLine(t *testing.T) {
	j := Journal{Dir: t.TempDir()}
	a, b := NewID(t0), NewID(t0.Add(1))
	j.Append(Run{ID: a, Time: t0, Kind: KindRecall, Request: "before"})
	f, _ := os.OpenFile(j.Path(), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"t":"run","run":{"id":"huge","request":"` + strings.Repeat("x", maxLine) + `"}}` + "\n")
	f.Close()
	j.Append(Run{ID: b, Time: t0, Kind: KindRecall, Request: "after"})
	s, err := OpenStore(j)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	runs, err := s.Runs(Filter{})
	if err != nil || len(runs) != 2 {
		t.Fatalf("runs = %+v, %v; want the two around the long line", runs, err)
	}
	for _, r := range runs {
		if r.ID == "huge" {
			t.Fatal("the overlong line was replayed")
		}
	}
}
