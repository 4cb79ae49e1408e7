package runlog

import (
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
