package longterm

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/lint"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

const card = `---
type: decision
---

# Решения

Intro that is not truth.

## Links

- [[index]]
`

func TestFactAddAppendsNeverRewrites(t *testing.T) {
	s := newProject(t)
	day(t, s, "2026-11-28", "")
	testfile.Write(t, s.Path("wiki/Решения.md"), card)
	res, err := s.FactAdd("wiki/Решения.md", "we ship weekly", "daily/2026-11-28", "09:30", now)
	if err != nil {
		t.Fatal(err)
	}
	if res.Line != "- 2026-11-28: we ship weekly · [[daily/2026-11-28]] 09:30" {
		t.Fatalf("line %q", res.Line)
	}
	if _, err := s.FactAdd("wiki/Решения.md", "second fact", "daily/2026-11-28", "", now); err != nil {
		t.Fatal(err)
	}
	again, err := s.FactAdd("wiki/Решения.md", "we ship weekly", "daily/2026-11-28", "09:30", now)
	if err != nil || !again.Already {
		t.Fatalf("duplicate: %+v %v", again, err)
	}
	got := testfile.Read(t, s.Path("wiki/Решения.md"))
	golden(t, "facts-page.md", []byte(got))
	if !strings.HasPrefix(got, strings.TrimSuffix(card, "\n")) {
		t.Fatal("existing lines were rewritten")
	}
	v, _ := s.LoadVault()
	if l := v.Page(LogFile); l == nil || len(l.Links) != 0 || !strings.Contains(l.Body, "we ship weekly") {
		t.Fatalf("log.md must record the fact without linking: %+v", l)
	}
}

func TestFactAddRefusals(t *testing.T) {
	s := newProject(t)
	day(t, s, "2026-11-28", "")
	testfile.Write(t, s.Path("wiki/p.md"), card)
	before := testfile.Read(t, s.Path("wiki/p.md"))
	for _, c := range []struct{ page, text, ev, hhmm string }{
		{"wiki/p.md", "x", "daily/2026-11-27", ""}, // no such day
		{"wiki/p.md", "x", "2026-11-28", ""},       // not daily/...
		{"wiki/p.md", "x", "daily/2026-11-28", "9:3"},
		{"wiki/p.md", "two\nlines", "daily/2026-11-28", ""},
		{"wiki/missing.md", "x", "daily/2026-11-28", ""},
		{"../outside.md", "x", "daily/2026-11-28", ""},
	} {
		if _, err := s.FactAdd(c.page, c.text, c.ev, c.hhmm, now); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
	if testfile.Read(t, s.Path("wiki/p.md")) != before {
		t.Fatal("a refused fact changed the page")
	}
}

func TestTruthSetReplacesAndArchives(t *testing.T) {
	s := newProject(t)
	day(t, s, "2026-11-28", "")
	testfile.Write(t, s.Path("wiki/Решения.md"), card)
	s.FactAdd("wiki/Решения.md", "we ship weekly", "daily/2026-11-28", "09:30", now)
	h, err := s.TruthHash("wiki/Решения.md")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.TruthSet("wiki/Решения.md", []byte("We ship every Monday.\n"), h, now); err != nil {
		t.Fatal(err)
	}
	h, _ = s.TruthHash("wiki/Решения.md")
	later := now.Add(time.Hour)
	if err := s.TruthSet("wiki/Решения.md", []byte("## Compiled truth\n\nWe ship every Tuesday.\n\n### Why\nMondays are busy.\n"), h[:12], later); err != nil {
		t.Fatal(err)
	}
	got := testfile.Read(t, s.Path("wiki/Решения.md"))
	golden(t, "truth-page.md", []byte(got))
	if !strings.Contains(got, "Intro that is not truth.") || strings.Count(got, "## Compiled truth") != 1 {
		t.Fatalf("page:\n%s", got)
	}
	if _, err := os.Stat(s.Path(PendingPath("wiki/Решения.md"))); !os.IsNotExist(err) {
		t.Fatal("pending file written on success")
	}
}

func TestTruthSetMismatchLeavesPending(t *testing.T) {
	s := newProject(t)
	testfile.Write(t, s.Path("wiki/p.md"), card)
	h, _ := s.TruthHash("wiki/p.md")
	// A person edits the page after the model read it.
	edited := card + "\nA human line.\n"
	testfile.Write(t, s.Path("wiki/p.md"), edited)
	err := s.TruthSet("wiki/p.md", []byte("model's truth\n"), h, now)
	var ce *TruthConflictError
	if !errors.As(err, &ce) || ce.Pending != "wiki/p.truth-pending.md" {
		t.Fatalf("got %v", err)
	}
	if testfile.Read(t, s.Path("wiki/p.md")) != edited {
		t.Fatal("the page changed on a mismatch")
	}
	pending := testfile.Read(t, s.Path(ce.Pending))
	if !strings.Contains(pending, "type: truth-pending") || !strings.Contains(pending, "model's truth") || !strings.Contains(pending, "[[wiki/p]]") {
		t.Fatalf("pending:\n%s", pending)
	}
	// A second refused proposal is added, the first kept.
	s.TruthSet("wiki/p.md", []byte("another truth\n"), h, now)
	pending = testfile.Read(t, s.Path(ce.Pending))
	if !strings.Contains(pending, "model's truth") || !strings.Contains(pending, "another truth") {
		t.Fatalf("pending lost a proposal:\n%s", pending)
	}
	found, _ := s.Lint(LintOptions{Project: true})
	if lint.HasErrors(found) || !hasRule(found, "truth-pending") {
		t.Fatalf("lint: %+v", found)
	}
}

func TestTruthSetRefusesBadInput(t *testing.T) {
	s := newProject(t)
	testfile.Write(t, s.Path("wiki/p.md"), card)
	h, _ := s.TruthHash("wiki/p.md")
	for _, truth := range []string{"", "# Title\n", "x\n## Other section\n", "bad \x00 byte"} {
		if err := s.TruthSet("wiki/p.md", []byte(truth), h, now); err == nil {
			t.Errorf("%q accepted", truth)
		}
	}
	if err := s.TruthSet("wiki/p.md", []byte("x"), "abc", now); err == nil {
		t.Error("a short hash accepted")
	}
	if testfile.Read(t, s.Path("wiki/p.md")) != card {
		t.Fatal("page changed")
	}
}

func TestCoreCapRefusesNotTruncates(t *testing.T) {
	s := newProject(t)
	n, err := s.CoreSet("- всегда: go test ./internal/...", 2000, now)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CoreAdd("- second line", 2000, now); err != nil {
		t.Fatal(err)
	}
	got := testfile.Read(t, s.Path(CoreFile))
	if got != "---\ntype: core\n---\n\n- всегда: go test ./internal/...\n- second line\n" {
		t.Fatalf("CORE.md:\n%q", got)
	}
	if n != len([]rune("---\ntype: core\n---\n\n- всегда: go test ./internal/...\n")) {
		t.Fatalf("counted %d", n)
	}
	cur := len([]rune(got))
	_, err = s.CoreAdd(strings.Repeat("я", 2000-cur), 2000, now) // one over: the newline
	var big *CoreTooBigError
	if !errors.As(err, &big) || big.Chars-big.Max != 1 || !strings.Contains(err.Error(), "1 over the cap of 2000") {
		t.Fatalf("got %v", err)
	}
	if testfile.Read(t, s.Path(CoreFile)) != got {
		t.Fatal("a refused edit changed CORE.md")
	}
	if _, err := s.CoreAdd(strings.Repeat("я", 2000-cur-1), 2000, now); err != nil {
		t.Fatalf("an edit that exactly fits was refused: %v", err)
	}
}

func hasRule(fs []lint.Finding, rule string) bool {
	for _, f := range fs {
		if f.Rule == rule {
			return true
		}
	}
	return false
}
