package planfact

import (
	"strings"
	"testing"
	"time"
)

var today = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

func TestTemplateIsValid(t *testing.T) {
	pf, probs := Parse(Template("Мой проект: beta", today))
	if len(probs) != 0 {
		t.Fatalf("template has problems: %v", probs)
	}
	if pf.Project != "Мой проект: beta" || pf.Status != "active" || pf.Updated != "2026-11-30" || len(pf.Blockers) != 0 {
		t.Fatalf("got %+v", pf)
	}
}

func TestParseProblemsCarryLines(t *testing.T) {
	in := "---\ntype: plan-fact\nproject: p\nstage: s\nplan_status: late\nstatus: completed\nnext: x\nblockers: nope\nsummary: s\nupdated: 30.11.2026\n---\nbody\n"
	_, probs := Parse([]byte(in))
	want := []string{
		"line 5: plan_status: is \"late\"",
		"line 8: blockers: want a list",
		"line 10: updated: is \"30.11.2026\"",
		"line 11: completed: missing",
	}
	if len(probs) != len(want) {
		t.Fatalf("got %v", probs)
	}
	for i, w := range want {
		if !strings.HasPrefix(probs[i].String(), w) {
			t.Errorf("problem %d = %q, want prefix %q", i, probs[i], w)
		}
	}
	if _, probs := Parse([]byte("# just a page\n")); len(probs) != 1 || probs[0].Line != 1 {
		t.Errorf("no frontmatter: %v", probs)
	}
}

func TestSet(t *testing.T) {
	data := Template("p", today.AddDate(0, 0, -3))
	out, err := Set(data, "status", []string{"completed"}, today)
	if err != nil {
		t.Fatal(err)
	}
	pf, probs := Parse(out)
	if len(probs) != 0 || pf.Status != "completed" || pf.Completed != "2026-11-30" || pf.Updated != "2026-11-30" {
		t.Fatalf("got %+v %v", pf, probs)
	}
	out, err = Set(out, "blockers", []string{"waiting for legal", " ", "no staging"}, today)
	if err != nil {
		t.Fatal(err)
	}
	if pf, _ := Parse(out); len(pf.Blockers) != 2 {
		t.Fatalf("blockers = %v", pf.Blockers)
	}
	if !strings.Contains(string(out), "\nupdated: 2026-11-30\n") {
		t.Fatalf("date written quoted:\n%s", out)
	}
	if !strings.Contains(string(out), "| start |") {
		t.Fatal("body lost")
	}
	for _, bad := range [][]string{{"plan_status", "late"}, {"updated", "tomorrow"}, {"colour", "red"}, {"next", "a\nb"}} {
		if _, err := Set(data, bad[0], bad[1:], today); err == nil {
			t.Errorf("Set(%v): want an error", bad)
		}
	}
}
