package serve

import (
	"strings"
	"testing"
)

// TestBreakable: a word stays whole however long a column squeezes it; a
// token longer than a word gets a break opportunity every tokenRunes
// characters; everything is escaped.
func TestBreakable(t *testing.T) {
	tok := strings.Repeat("абвгд", 6) // 30 runes, Cyrillic: counted in runes
	for in, want := range map[string]string{
		"blocked": "blocked",
		"заблокирован · describe it":       "заблокирован · describe it",
		strings.Repeat("x", wordRunes):     strings.Repeat("x", wordRunes),
		tok:                                string([]rune(tok)[:12]) + "<wbr>" + string([]rune(tok)[12:24]) + "<wbr>" + string([]rune(tok)[24:]),
		"a <b>&" + strings.Repeat("y", 25): "a &lt;b&gt;&amp;" + strings.Repeat("y", 8) + "<wbr>" + strings.Repeat("y", 12) + "<wbr>" + strings.Repeat("y", 5),
		"  two  spaces ":                   "  two  spaces ",
	} {
		if got := string(breakable(in)); got != want {
			t.Errorf("breakable(%q) = %q, want %q", in, got, want)
		}
	}
}
