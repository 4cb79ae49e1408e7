package cite

import "testing"

func TestLinesAndParseRoundTrip(t *testing.T) {
	c := Lines(".claude/memory_short/daily/2026-11-21.md", 5, 9)
	if c != ".claude/memory_short/daily/2026-11-21.md#L5-L9" {
		t.Fatalf("Lines = %q", c)
	}
	p, from, to, ok := Parse(c)
	if !ok || p != ".claude/memory_short/daily/2026-11-21.md" || from != 5 || to != 9 {
		t.Errorf("Parse(%q) = %q %d %d %v", c, p, from, to, ok)
	}
	for _, bad := range []string{"notes.md:5-9", "notes.md#L9-L5", "#L1-L2", "notes.md#Lx-L2", "notes.md"} {
		if _, _, _, ok := Parse(bad); ok {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}
