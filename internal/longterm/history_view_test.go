package longterm

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestMergeAskingThenHistoryShowsAndReverts: a merge the person declines
// changes nothing; the one they accept is one commit, which long log
// lists, long diff shows and long revert takes back with a hint-free
// result; a memory without a history says how to get one.
func TestMergeAskingThenHistoryShowsAndReverts(t *testing.T) {
	s := newProject(t)
	day(t, s, "2026-11-27", session("09:00", "q", "", ""))
	for _, page := range []string{"wiki/A.md", "wiki/B.md"} {
		if _, err := s.WritePage(page, []byte("---\ntype: topic\n---\n# "+page+"\n"), now); err != nil {
			t.Fatal(err)
		}
		if _, err := s.FactAdd(page, "fact of "+page, "daily/2026-11-27", "", now); err != nil {
			t.Fatal(err)
		}
	}
	h, err := s.History(GitOwn, now)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.CommitAll("pages", now); err != nil {
		t.Fatal(err)
	}
	commit := func(action string, fn func() error) error {
		return s.Change(GitOwn, action, func() time.Time { return now }, func(m string) { t.Error(m) }, fn)
	}
	var out bytes.Buffer
	d := MergeDialog{Page: "wiki/A.md", From: "wiki/B.md", In: strings.NewReader("n\n"), Out: &out, Now: now, Commit: commit}
	if err := s.MergeAsking(d); err != nil || !strings.Contains(out.String(), "nothing merged") {
		t.Fatalf("declined: %v\n%s", err, out.String())
	}
	d.In = strings.NewReader("y\n")
	if err := s.MergeAsking(d); err != nil || !strings.Contains(out.String(), "merged wiki/B.md into wiki/A.md") {
		t.Fatalf("accepted: %v\n%s", err, out.String())
	}
	v, err := h.Show(HistoryQuery{Action: "log", Path: "wiki/B.md"})
	if err != nil || len(v.Log) != 2 || !strings.Contains(v.Log[0].Message, "fact merge wiki/B.md into wiki/A.md") {
		t.Fatalf("log: %+v, %v", v, err)
	}
	if v, err := h.Show(HistoryQuery{Action: "diff", Path: "wiki/B.md"}); err != nil || !strings.Contains(v.Diff, "fact of wiki/B.md") {
		t.Fatalf("diff: %+v, %v", v, err)
	}
	v, err = h.Show(HistoryQuery{Action: "revert", Path: "wiki/B.md", Now: now, Warn: func(m string) { t.Error(m) }})
	if err != nil || v.Commit == "" {
		t.Fatalf("revert: %+v, %v", v, err)
	}
	out.Reset()
	v.WriteText(&out)
	if !strings.HasPrefix(out.String(), "wiki/B.md reverted to its previous version: commit ") {
		t.Errorf("revert said %q", out.String())
	}
	off, _ := s.History(GitOff, now)
	_, err = off.Show(HistoryQuery{Action: "log"})
	var hinted interface{ Hint() string }
	if !errors.Is(err, ErrNoHistory) || !errors.As(err, &hinted) || !strings.Contains(hinted.Hint(), `long.git = "own"`) {
		t.Errorf("no history: %v", err)
	}
}
