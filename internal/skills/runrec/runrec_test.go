package runrec

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

func TestStoreReplaysTheJournal(t *testing.T) {
	j := Journal{Dir: t.TempDir()}
	a, b := NewID(t0), NewID(t0)
	if a == b {
		t.Fatal("ids must differ")
	}
	j.Append(Run{ID: a, Time: t0, Kind: KindRecall, Request: "q", Depth: 2, AnswerKind: "affirmative"})
	j.Append(Run{ID: b, Time: t0, Kind: KindTurn, Open: true, Tools: []string{"Skill(memory)"}})
	j.Tool(b, "Bash", t0)
	j.End(b, 3.5, t0)
	if err := j.Verdict(Verdict{Run: a, Verdict: "maybe"}); err == nil {
		t.Fatal("a verdict is good or bad")
	}
	j.Verdict(Verdict{Run: a, Verdict: "bad", Source: "person"})
	j.Verdict(Verdict{Run: a, Verdict: "GOOD", Source: "person", Note: "second look"})
	// A torn last line (a writer killed mid-line) waits, never fails.
	f, _ := os.OpenFile(j.Path(), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"t":"run","run":{"id":"torn"`)
	f.Close()

	s, err := OpenStore(j)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	runs, err := s.Runs(Filter{})
	if err != nil || len(runs) != 2 {
		t.Fatalf("%+v %v", runs, err)
	}
	if runs[0].ID != a || runs[0].Verdict != Good || runs[0].VerdictNote != "second look" {
		t.Errorf("the newest verdict wins: %+v", runs[0])
	}
	if r := runs[1]; r.Open || r.Seconds != 3.5 || len(r.Tools) != 2 || !r.Unfinished() {
		t.Errorf("turn after its tool and end: %+v", r)
	}
	if sum := Summarize(runs); sum.Good != 1 || sum.Unfinished != 1 || sum.Bad != 0 {
		t.Errorf("%+v", sum)
	}

	// The cache is a cache: deleted, it is rebuilt the same.
	s.Close()
	os.Remove(filepath.Join(j.Dir, "runs.db"))
	s2, err := OpenStore(j)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	again, _ := s2.Runs(Filter{})
	if len(again) != 2 || again[0].Verdict != Good {
		t.Errorf("rebuilt: %+v", again)
	}
}

func BenchmarkAppend(b *testing.B) {
	j := Journal{Dir: b.TempDir()}
	r := Run{Time: t0, Kind: KindRecall, Request: "when does the deploy key rotate", Depth: 2, AnswerKind: "affirmative",
		Skills: []Skill{{Name: "use-memory", Version: "ce013625030ba8dba906f756967f9e9ca394464a"}}}
	for i := 0; i < b.N; i++ {
		r.ID = NewID(t0)
		if err := j.Append(r); err != nil {
			b.Fatal(err)
		}
	}
}
