package shortterm

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestWeekThroughTheHooks: sessions on four days, then a fifth day's
// session: it is handed every day (the earlier ones as lines); after a
// compaction the earlier days again but not its own sections; on resume
// nothing it has.
func TestWeekThroughTheHooks(t *testing.T) {
	f := newMemory(t)
	for _, topic := range []string{"alpha", "beta", "gamma", "delta"} {
		s := "s-" + topic
		f.start(t, s, "startup")
		f.turns(t, s, topic, 3)
		f.end(t, s)
		f.now = f.now.Add(24 * time.Hour)
	}
	got := f.start(t, "today", "startup")
	for _, w := range []string{"alpha", "beta", "gamma", "delta"} {
		if !strings.Contains(got, w) {
			t.Fatalf("day 5 is missing %s:\n%s", w, got)
		}
	}
	if !strings.Contains(got, `kind="timeline"`) {
		t.Fatalf("no timeline:\n%s", got)
	}
	f.turns(t, "today", "epsilon", 3)
	if err := f.m.PreCompact(context.Background(), f.hook("today")); err != nil {
		t.Fatal(err)
	}
	got = f.start(t, "today", "compact")
	for _, w := range []string{"alpha", "beta", "gamma", "delta"} {
		if !strings.Contains(got, w) {
			t.Fatalf("compact is missing %s:\n%s", w, got)
		}
	}
	if strings.Contains(got, "epsilon") {
		t.Fatalf("compact handed the session its own section:\n%s", got)
	}
	if got := f.start(t, "today", "resume"); got != "" {
		t.Fatalf("resume after compact handed again:\n%s", got)
	}
}
