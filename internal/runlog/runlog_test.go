package runlog

import (
	"errors"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"os"
	"testing"
	"time"
)

func TestRotateAndRead(t *testing.T) {
	l := Open(t.TempDir(), 2000)
	for i := 0; i < 40; i++ {
		if err := l.Write(Entry{Time: time.Unix(int64(i), 0), Event: "stop", MS: float64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	fi, err := os.Stat(l.Path)
	if err != nil || fi.Size() > 2000 {
		t.Fatalf("log not capped: %v %v", fi.Size(), err)
	}
	es, err := l.Read()
	if err != nil || len(es) == 0 || es[len(es)-1].MS != 39 {
		t.Fatalf("read: %d entries, %v", len(es), err)
	}
	for i := 1; i < len(es); i++ {
		if es[i].MS <= es[i-1].MS {
			t.Fatal("entries out of order")
		}
	}
}

// A log that is a link elsewhere is refused, not read; an overlong line
// is skipped and the lines after it still read.
func TestReadRefusesALinkAndSkipsAnOverlongLine(t *testing.T) {
	dir := t.TempDir()
	l := Open(dir, 10<<20)
	l.Write(Entry{Time: time.Unix(1, 0), Event: "stop", MS: 1})
	f, _ := os.OpenFile(l.Path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"event":"` + strings.Repeat("x", maxLine) + `","ms":2}` + "\n")
	f.Close()
	l.Write(Entry{Time: time.Unix(3, 0), Event: "stop", MS: 3})
	es, err := l.Read()
	if err != nil || len(es) != 2 || es[0].MS != 1 || es[1].MS != 3 {
		t.Fatalf("read %+v, %v; want the entries around the long line", es, err)
	}

	linked := Open(t.TempDir(), 1<<20)
	if err := os.Symlink(l.Path, linked.Path); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if es, err := linked.Read(); err == nil || !errors.Is(err, safefs.ErrSymlink) {
		t.Fatalf("a linked log was read: %d entries, %v", len(es), err)
	}
}
