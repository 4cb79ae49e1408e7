package night

import (
	"testing"

	"github.com/cerebro-mem/cerebro/internal/claude"
)

func TestOwnerEvidence(t *testing.T) {
	day := []byte(`---
type: daily
---

## 10:15–10:40 · session 8f825584 · auto

### Asked
- Let's always deploy through the staging cluster first.
- Релизы выходят по пятницам, запомни.
### Done
- I migrated the database to Postgres 17.

## 14:02–14:30 · session 11111111 · auto

### Asked
- add a flag
- when is our deploy window?
  - answer: The deploy window is Tuesday midnight UTC.
### Final message
- The deploy window is Tuesday midnight UTC.

## Notes

- our on-call rotation changes on Mondays
`)
	cases := []struct {
		fact string
		ok   bool
		at   string
	}{
		{"deploys go through the staging cluster first", true, "10:15"}, // key terms, stemmed
		{"релизы выходят по пятницам", true, "10:15"},                   // the text itself
		{"the database was migrated to Postgres 17", false, ""},         // only the assistant said it
		{"add a flag", true, "14:02"},
		{"releases leave on Mondays", false, ""},
		{"deploy window is Tuesday midnight UTC", false, ""},  // the assistant's answer nested under a request
		{"the on-call rotation changes on Mondays", true, ""}, // a section the person wrote by hand
	}
	for _, c := range cases {
		r, ok := OwnerEvidence(day, c.fact)
		if ok != c.ok || r.Time != c.at {
			t.Errorf("%q: ok %v at %q, want %v at %q", c.fact, ok, r.Time, c.ok, c.at)
		}
	}
}

// TestOwnerEvidenceAfterAnOpenFence: a code fence a hand edit left open
// does not hide what the person said in the sections written after it.
func TestOwnerEvidenceAfterAnOpenFence(t *testing.T) {
	day := []byte("---\ntype: daily\n---\n\n## 09:00–09:30 · session aaaaaaaa · auto\n<!-- cerebro:segment session=aaaaaaaa-1 from=0 to=1 seq=1 -->\n\n### Done\n- pasted a log\n```\n\n" +
		"## 10:15–10:40 · session bbbbbbbb · auto\n<!-- cerebro:segment session=bbbbbbbb-2 from=0 to=1 seq=1 -->\n\n### Asked\n- releases leave on Fridays\n")
	if r, ok := OwnerEvidence(day, "releases leave on Fridays"); !ok || r.Time != "10:15" {
		t.Fatalf("ok %v at %q", ok, r.Time)
	}
}

func TestBudget(t *testing.T) {
	b := LoadBudget("", "2026-10-01", 2, 100)
	if !b.Allow("short") {
		t.Fatal("first call refused")
	}
	b.Reserve(EstimateTokens("short"))
	b.Settle(EstimateTokens("short"), claude.Usage{InputTokens: 30, OutputTokens: 4, CacheReadTokens: 10})
	if b.Tokens != 40 || b.OutputTokens != 4 || b.Calls != 1 {
		t.Fatalf("after one call: %+v", b)
	}
	if b.Allow(string(make([]byte, 400))) {
		t.Fatal("a prompt over the token budget was allowed")
	}
	if !b.Stopped || b.Allow("x") {
		t.Fatal("a stopped budget allows calls")
	}
	u := LoadBudget("", "2026-10-01", 40, 1000)
	u.Unaccounted = "call 1: no usage"
	if u.Allow("x") {
		t.Fatal("a call after one whose usage is unknown was allowed")
	}
}
