package search

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func isoDay(s string) time.Time {
	t, _ := time.Parse("2006-01-02", s)
	return t
}

// A period keeps a search to the notes dated in it, even when an older or
// newer note matches the words better; undated pages are left out.
func TestWithinKeepsToThePeriod(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "daily", "2026-10-13.md"), "# 2026-10-13\n\nRouter router router: keep the router firmware.\n")
	write(t, filepath.Join(dir, "daily", "2026-11-28.md"), "# 2026-11-28\n\nThe router was restarted.\n")
	write(t, filepath.Join(dir, "daily", "2026-11-29.md"), "# 2026-11-29\n\nRouter firmware updated on the router.\n")
	write(t, filepath.Join(dir, "rollups", "week", "2026-W44.md"), "# Week 44\n\nRouter week.\n")
	write(t, filepath.Join(dir, "CORE.md"), "# Core\n\nThe router lives in the rack.\n")
	ix := indexed(t, t.TempDir(), Root{Dir: dir, Kind: KindShort}, Params{})
	search := func(p *DayRange) []string {
		t.Helper()
		o := defaults()
		o.Within, o.Base = p, dir
		r, err := Search(context.Background(), []*Index{ix}, "router", o)
		if err != nil {
			t.Fatal(err)
		}
		got := paths(r)
		slices.Sort(got)
		return got
	}
	if got := search(nil); len(got) != 5 {
		t.Fatalf("no period: %v", got)
	}
	cases := []struct {
		p    DayRange
		want []string
	}{
		{DayRange{From: isoDay("2026-11-28")}, []string{"daily/2026-11-28.md", "daily/2026-11-29.md"}},
		{DayRange{To: isoDay("2026-11-01")}, []string{"daily/2026-10-13.md", "rollups/week/2026-W44.md"}},
		{DayRange{From: isoDay("2026-11-29"), To: isoDay("2026-11-29")}, []string{"daily/2026-11-29.md"}},
		{DayRange{From: isoDay("2026-12-01")}, nil},
	}
	for _, c := range cases {
		if got := search(&c.p); !slices.Equal(got, c.want) {
			t.Errorf("%v..%v: %v, want %v", c.p.From, c.p.To, got, c.want)
		}
	}
}

func TestParsePeriod(t *testing.T) {
	if p, err := ParsePeriod("", ""); p != nil || err != nil {
		t.Fatalf("no bounds: %v %v", p, err)
	}
	p, err := ParsePeriod("2026-11-01", "")
	if err != nil || !p.From.Equal(isoDay("2026-11-01")) || !p.To.IsZero() {
		t.Fatalf("since: %+v %v", p, err)
	}
	for _, bad := range [][2]string{{"yesterday", ""}, {"", "2026-13-01"}, {"2026-11-02", "2026-11-01"}} {
		if _, err := ParsePeriod(bad[0], bad[1]); err == nil {
			t.Errorf("%q..%q accepted", bad[0], bad[1])
		}
	}
}

// Memory catches a stale index up before it searches, and reads files
// inside its roots only.
func TestMemoryQueryAndGet(t *testing.T) {
	proj := t.TempDir()
	short := filepath.Join(proj, ".claude", "memory_short")
	write(t, filepath.Join(short, "daily", "2026-11-29.md"), "# 2026-11-29\n\nKestrel moved to the new rack.\n")
	write(t, filepath.Join(proj, "notes.md"), "kestrel outside memory\n")
	m := &Memory{Base: proj, Roots: []Root{{Dir: short, Kind: KindShort}}, IndexDir: t.TempDir(),
		Params: Params{ChunkTokens: 400, OverlapTokens: 80}, Options: defaults(), UpdateBudget: 5 * time.Second}
	resp, err := m.Query(context.Background(), "kestrel", 5, now, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Results) != 1 || resp.Results[0].Citation != ".claude/memory_short/daily/2026-11-29.md#L1-L3" {
		t.Fatalf("results %+v", resp.Results)
	}
	write(t, filepath.Join(short, "daily", "2026-11-30.md"), "# 2026-11-30\n\nKestrel rack powered.\n")
	resp, _ = m.Query(context.Background(), "kestrel", 5, now, &DayRange{From: isoDay("2026-11-30")})
	if len(resp.Results) != 1 || resp.Results[0].Path != ".claude/memory_short/daily/2026-11-30.md" {
		t.Fatalf("after a new file, within its day: %+v", resp.Results)
	}
	got, err := m.Get(".claude/memory_short/daily/2026-11-29.md", 3, 1)
	if err != nil || got != (Got{Text: "Kestrel moved to the new rack.\n", Path: ".claude/memory_short/daily/2026-11-29.md"}) {
		t.Fatalf("get: %+v %v", got, err)
	}
	got, err = m.Get(".claude/memory_short/daily/2027-01-01.md", 1, 0)
	if err != nil || got.Text != "" || got.Path != ".claude/memory_short/daily/2027-01-01.md" {
		t.Fatalf("missing file: %+v %v", got, err)
	}
	var out *OutsideError
	if _, err := m.Get("notes.md", 1, 0); !errors.As(err, &out) || !strings.Contains(err.Error(), "outside the memory roots") {
		t.Fatalf("outside: %v", err)
	}
}
