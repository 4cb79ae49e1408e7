package longterm

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/journal"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// grounded is a section in the grounded distillate's form.
func grounded(hhmm, id, body string) string {
	return "\n## " + hhmm + "–23:59 · session " + id + " · auto\n<!-- cerebro:segment session=" + id + " from=0 to=10 seq=1 -->\n\n" + body
}

// TestRollupOpenHoldsOpenWork: a week's Open lists what was open at its
// end — an item a later section closed is gone, one of an earlier week
// that nobody closed is carried — and each headline gives the session's
// outcome.
func TestRollupOpenHoldsOpenWork(t *testing.T) {
	s := New(t.TempDir())
	day(t, s, "2026-11-18", grounded("09:00", "w47", "### Asked\n- plan the importer\n### Open\n- ask about the date format\n"))
	day(t, s, "2026-11-24", grounded("09:12", "a1", "### Asked\n- write the importer\n### Done\n- committed a1b2c3d import: CSV reader\n- tests: go test 12 passed, 1 failed\n### Open\n- tests: go test 12 passed, 1 failed\n- add a --dry-run flag\n"))
	day(t, s, "2026-11-26", grounded("10:00", "b2", "### Asked\n- fix the test\n### Done\n- tests: go test 13 passed, 0 failed\n"))
	if _, err := s.RollupDays(now); err != nil {
		t.Fatal(err)
	}
	w := testfile.Read(t, filepath.Join(s.RollupDir, "week", "2026-W48.md"))
	r := journal.ReadRollup([]byte(w))
	var open []string
	for _, it := range r.Open {
		open = append(open, it.Text+"@"+it.Date)
	}
	if strings.Join(open, "|") != "ask about the date format@2026-11-18|add a --dry-run flag@2026-11-24" {
		t.Fatalf("open %v in\n%s", open, w)
	}
	if len(r.Headlines) != 2 || r.Headlines[0].Text != "2026-11-24 09:12 · write the importer · committed a1b2c3d import: CSV reader · tests: go test 12 passed, 1 failed" ||
		r.Headlines[1].Date != "2026-11-26" {
		t.Fatalf("headlines %+v", r.Headlines)
	}
	if r.Period != "2026-W48" || r.From != "2026-11-23" || r.To != "2026-11-29" || r.Days != 2 {
		t.Fatalf("period %+v", r)
	}
	// Four weeks on, an item nobody closed is only counted.
	day(t, s, "2026-12-30", grounded("09:00", "c3", "### Asked\n- later\n"))
	if _, err := s.RollupDays(time.Date(2027, 1, 5, 9, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	late := testfile.Read(t, filepath.Join(s.RollupDir, "week", "2026-W53.md"))
	if strings.Contains(late, "dry-run") || !strings.Contains(late, "2 older open item(s)") {
		t.Fatalf("late week:\n%s", late)
	}
}
