package night

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSpansCutBetweenSections(t *testing.T) {
	sec := func(hhmm, id, body string) string {
		return "## " + hhmm + "–23:59 · session " + id + " · auto\n<!-- cerebro:segment session=" + id + " from=0 to=1 seq=1 -->\n\n" + body + "\n\n"
	}
	day := "---\ntype: daily\ndate: 2026-11-24\n---\n\n# 2026-11-24\n\n" +
		sec("09:00", "aaaa", "### Asked\n- "+strings.Repeat("a", 60)+"\n\n```\n## not a section\n```") +
		sec("10:00", "bbbb", "### Asked\n- "+strings.Repeat("b", 300)) +
		sec("11:00", "cccc", "### Asked\n- c") +
		sec("12:00", "dddd", "### Asked\n- d")
	units := dayUnits([]byte(day))
	if len(units) != 5 || joinUnits(units) != day {
		t.Fatalf("%d units, or they do not join to the day", len(units))
	}
	sp := spans(units, 0, 250)
	var parts []string
	for _, s := range sp {
		parts = append(parts, joinUnits(units[s.from:s.to]))
	}
	if strings.Join(parts, "") != day {
		t.Fatal("parts do not join to the day")
	}
	if len(parts) != 3 || !strings.HasPrefix(parts[0], "---\ntype: daily") || !strings.Contains(parts[0], "## not a section") ||
		!strings.HasPrefix(parts[1], "## 10:00") || !strings.HasPrefix(parts[2], "## 11:00") || !strings.Contains(parts[2], "## 12:00") {
		t.Fatalf("%d parts: %q", len(parts), parts)
	}
	for i, p := range parts {
		if n := utf8.RuneCountInString(p); n > 250 && strings.Count(p, "<!-- cerebro:segment") > 1 {
			t.Errorf("part %d has %d characters and more than one section", i, n)
		}
	}
	if got := spans(units, 0, 1<<20); len(got) != 1 {
		t.Errorf("a short day in %d parts", len(got))
	}
	// A tail: only the sections after the ones already read.
	if got := spans(units, 3, 1<<20); len(got) != 1 || got[0] != (span{3, 5}) {
		t.Errorf("tail spans %v", got)
	}
	if got := spans(units, 5, 1<<20); len(got) != 0 {
		t.Errorf("nothing new, yet spans %v", got)
	}
}
