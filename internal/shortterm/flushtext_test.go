package shortterm

import (
	"bytes"
	"testing"
)

func TestWriteFlushReports(t *testing.T) {
	var b bytes.Buffer
	WriteFlushReports(&b, []FlushReport{
		{Session: "s1", FlushResult: FlushResult{File: "daily/2026-11-30.md", Seq: 2, Replies: 3, Chars: 400}},
		{Session: "s2", FlushResult: FlushResult{Skipped: "trivial"}},
	}, false)
	if want := "s1: wrote section 2 (3 replies, 400 characters) to daily/2026-11-30.md\ns2: skipped (trivial)\n"; b.String() != want {
		t.Fatalf("got %q, want %q", b.String(), want)
	}
	for _, failed := range []bool{false, true} {
		b.Reset()
		WriteFlushReports(&b, nil, failed)
		if got := b.String(); (got == "") != failed {
			t.Errorf("failed %v: %q", failed, got)
		}
	}
}
