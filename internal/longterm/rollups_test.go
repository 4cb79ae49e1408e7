package longterm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

func TestRollupWeekWaitsForItsSevenDays(t *testing.T) {
	s := New(t.TempDir())
	// 2026-11-23 is the Monday of ISO week 48; 2026-11-30 opens week 49.
	day(t, s, "2026-11-24", session("09:12", "make the flush atomic", "use temp+rename", "windows rename semantics"), session("14:00", "second session", "", ""))
	day(t, s, "2026-11-29", session("10:00", "sunday work", "", "ship it"))
	day(t, s, "2026-11-30", session("08:00", "monday, week 49", "", ""))
	sunday := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	res, err := s.RollupDays(sunday)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Written) != 0 {
		t.Fatalf("week 48 built on its own Sunday: %v", res.Written)
	}
	res, err = s.RollupDays(now)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Written) != 1 || res.Written[0] != "week/2026-W48.md" {
		t.Fatalf("written %v", res.Written)
	}
	golden(t, "week-2026-W48.md", []byte(testfile.Read(t, filepath.Join(s.RollupDir, "week", "2026-W48.md"))))
	// Idempotent.
	res, _ = s.RollupDays(now)
	if len(res.Written) != 0 || len(res.Unchanged) != 1 {
		t.Fatalf("second run %+v", res)
	}
}

func TestRollupMonthAndYear(t *testing.T) {
	s := New(t.TempDir())
	day(t, s, "2025-11-28", session("09:00", "late november", "pick Go", ""))
	// An archived day counts too, and a day file is never touched.
	archived := filepath.Join(s.ArchiveDir, "2025-12-01.md")
	testfile.Write(t, archived, "---\ntype: daily\ndate: 2025-12-01\n---\n\n# 2025-12-01\n"+session("11:00", "december", "", "open thing"))
	before := testfile.Read(t, archived)
	info, _ := os.Stat(archived)

	res, err := s.RollupDays(time.Date(2025, 12, 1, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	// November and its last week (Nov 24–30) are over on December 1st.
	if !contains(res.Written, "month/2025-11.md") || !contains(res.Written, "week/2025-W48.md") || contains(res.Written, "month/2025-12.md") {
		t.Fatalf("on Dec 1: %v", res.Written)
	}
	res, err = s.RollupDays(time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"week/2025-W49.md", "week/2026-W01.md", "month/2025-12.md"} {
		if !contains(res.Written, want) {
			t.Errorf("%s not built: %v", want, res.Written)
		}
	}
	if contains(res.Written, "month/2026-01.md") || contains(res.Written, "week/2026-W02.md") {
		t.Fatalf("an unfinished period was built: %v", res.Written)
	}
	// The year waits for its twelve months: January to October have no
	// state until a person records them as months without data.
	if contains(res.Written, "year/2025.md") || len(res.Waiting) != 1 ||
		!strings.Contains(res.Waiting[0], "10 month(s) without a state: 2025-01,") ||
		!strings.Contains(res.Waiting[0], "`memhook rollup-days --no-data 2025-01..2025-10`") {
		t.Fatalf("year built on two months, or the wait not said: %+v", res)
	}
	if _, err := s.RollupNoData([]string{"2025-11"}, time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)); err == nil {
		t.Fatal("a month with days recorded as no data")
	}
	if _, err := s.RollupNoData([]string{"2025-01..2025-10"}, time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	res, err = s.RollupDays(time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if !contains(res.Written, "year/2025.md") || len(res.Waiting) != 0 {
		t.Fatalf("year not built with twelve months: %+v", res)
	}
	golden(t, "month-2025-11.md", []byte(testfile.Read(t, filepath.Join(s.RollupDir, "month", "2025-11.md"))))
	golden(t, "year-2025.md", []byte(testfile.Read(t, filepath.Join(s.RollupDir, "year", "2025.md"))))
	after, _ := os.Stat(archived)
	if testfile.Read(t, archived) != before || !after.ModTime().Equal(info.ModTime()) {
		t.Fatal("a day file was touched")
	}
}

// TestRollupYearWithOneMonth: a year whose only recorded month is
// December is not built from that month.
func TestRollupYearWithOneMonth(t *testing.T) {
	s := New(t.TempDir())
	day(t, s, "2026-12-02", session("09:00", "the only month", "", ""))
	res, err := s.RollupDays(time.Date(2027, 2, 1, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if !contains(res.Written, "month/2026-12.md") || contains(res.Written, "year/2026.md") {
		t.Fatalf("%v", res.Written)
	}
	if len(res.Waiting) != 1 || !strings.Contains(res.Waiting[0], "year/2026.md waits for 11 month(s)") {
		t.Fatalf("waiting %v", res.Waiting)
	}
}

func TestRollupMonthWaitsForWeekEndingInIt(t *testing.T) {
	s := New(t.TempDir())
	// October 2026 ends on a Saturday: its last ISO week ends Sunday Nov 1,
	// in November, so October needs only the weeks that end inside it.
	day(t, s, "2026-10-30", session("09:00", "late october", "", ""))
	res, err := s.RollupDays(time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if !contains(res.Written, "month/2026-10.md") || contains(res.Written, "week/2026-W44.md") {
		t.Fatalf("%v", res.Written)
	}
}

// TestParseDayAfterAnOpenFence: a fence a hand edit left open does not
// hide the sessions written after it (the flush's exactly-once check and
// inject see them, so the roll-up does too), and a "~~~" block is code.
func TestParseDayAfterAnOpenFence(t *testing.T) {
	d := ParseDay("2026-11-24", []byte("---\ntype: daily\n---\n# 2026-11-24\n"+session("09:12", "q1", "", "")+"```\n"+
		strings.Replace(session("11:00", "q2", "d2", ""), "session=8f825584", "session=8f825584-2", 1)+"~~~\n## not a section\n- x\n~~~\n"))
	if d.Sessions != 2 || len(d.Headlines) != 2 || d.Headlines[1] != "11:00 · q2" || len(d.Decisions) != 1 {
		t.Fatalf("%+v", d)
	}
}

func TestParseDay(t *testing.T) {
	d := ParseDay("2026-11-24", []byte("---\ntype: daily\n---\n# 2026-11-24\n"+session("09:12", "q1", "d1", "o1")+"\n```\n## not a section\n```\n"))
	if d.Sessions != 1 || len(d.Headlines) != 1 || d.Headlines[0] != "09:12 · q1" || d.Decisions[0] != "d1" || d.Open[0] != "o1" {
		t.Fatalf("%+v", d)
	}
}
