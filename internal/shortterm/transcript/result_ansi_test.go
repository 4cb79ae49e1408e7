package transcript

import "testing"

func TestStripANSI(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain", "plain"},
		{"\x1b[32m✓\x1b[39m src/a.test.ts \x1b[2m(3)\x1b[22m", "✓ src/a.test.ts (3)"},
		{"\x1b[2m Tests \x1b[22m \x1b[1m\x1b[32m15 passed\x1b[39m\x1b[22m\x1b[90m (15)\x1b[39m", " Tests  15 passed (15)"},
		{"\x1b]8;;https://x.dev\x07link\x1b]8;;\x07 end", "link end"},
		{"\x1b]0;title\x1b\\after", "after"},
		{"\x1b[?2026hContext\x1b[?2026l", "Context"},
		{"cut at the end \x1b[", "cut at the end "},
		{"\x1b(Bcharset", "charset"},
	} {
		if got := stripANSI(tt.in); got != tt.want {
			t.Errorf("stripANSI(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
