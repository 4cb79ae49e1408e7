package shortterm

import (
	"testing"
	"unicode/utf8"
)

func TestRecallNoticeCounts(t *testing.T) {
	for _, tc := range []struct{ context, want string }{
		{"", ""},
		{"# Recalled memory (cerebro)\n\n<memory kind=\"core\" source=\"/p/CORE.md\">\nShip.\n</memory>\n", "cerebro: recalled CORE.md"},
		// Two sections of one session on one day.
		{"<memory kind=\"short-term\" source=\"/p/d/2026-11-30.md\" date=\"2026-11-30\">\n## 09:00–09:10 · session abc · auto\n### Asked\n- x\n\n## 10:00–10:10 · session abc · manual\n### Asked\n- y\n</memory>\n",
			"cerebro: recalled 1 day, 1 session"},
	} {
		want := tc.want
		if want != "" {
			want += " (" + charCount(utf8.RuneCountInString(tc.context)) + ")"
		}
		if got := RecallNotice(tc.context); got != want {
			t.Errorf("RecallNotice:\n got %q\nwant %q", got, want)
		}
	}
	for n, want := range map[int]string{850: "850 chars", 4100: "4.1k chars", 12345: "12.3k chars"} {
		if got := charCount(n); got != want {
			t.Errorf("charCount(%d) = %q, want %q", n, got, want)
		}
	}
}
