package shortterm

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/shortterm/inject"
)

// TestSessionStartNoticeCountsWhatWasHanded: the person's line counts the
// inject's own result: two sections of one session on one day are one
// session, CORE is named; inject.notice off, no line, the same inject.
func TestSessionStartNoticeCountsWhatWasHanded(t *testing.T) {
	f := newMemory(t)
	f.cfg.Short.FlushReplies = 4
	f.turns(t, "s1", "parser", 4) // two flushes of one session
	start := func() Injected {
		h := f.hook("s2")
		h.Source = "startup"
		in, err := f.m.SessionStart(context.Background(), h)
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	in := start()
	if !regexp.MustCompile(`^cerebro: recalled 1 day, 1 session \(\d+ chars\)$`).MatchString(in.Notice) {
		t.Fatalf("notice %q for:\n%s", in.Notice, in.Text)
	}
	core := filepath.Join(f.root, ".claude", "memory_long", "CORE.md")
	os.MkdirAll(filepath.Dir(core), 0o755)
	os.WriteFile(core, []byte("# CORE\nThe ledger service is called Quokka.\n"), 0o600)
	if in := start(); !regexp.MustCompile(`^cerebro: recalled 1 day, 1 session, CORE.md \(\d+ chars\)$`).MatchString(in.Notice) {
		t.Fatalf("notice %q", in.Notice)
	}
	f.cfg.Inject.Notice = false
	if in := start(); in.Notice != "" || in.Text == "" {
		t.Fatalf("inject.notice off: notice %q, text %d chars", in.Notice, len(in.Text))
	}
}

func TestRecallNoticeWords(t *testing.T) {
	for _, tc := range []struct {
		text string
		r    inject.Recalled
		want string
	}{
		{"", inject.Recalled{Days: 1}, ""},
		{"x", inject.Recalled{Blocks: []string{"core"}}, "cerebro: recalled CORE.md (1 chars)"},
		{"x", inject.Recalled{Days: 2, Sessions: 3, Blocks: []string{"plan-fact", "weekly-rollup"}}, "cerebro: recalled 2 days, 3 sessions, plan-fact, the weekly roll-up (1 chars)"},
		{"x", inject.Recalled{}, "cerebro: recalled memory (1 chars)"},
	} {
		if got := recallNotice(tc.text, tc.r); got != tc.want {
			t.Errorf("recallNotice(%q, %+v) = %q, want %q", tc.text, tc.r, got, tc.want)
		}
	}
	for n, want := range map[int]string{850: "850 chars", 4100: "4.1k chars", 12345: "12.3k chars"} {
		if got := charCount(n); got != want {
			t.Errorf("charCount(%d) = %q, want %q", n, got, want)
		}
	}
}
