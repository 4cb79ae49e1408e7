package shortterm

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/shortterm/distill"
)

func (f *fixture) journal() string {
	data, err := os.ReadFile(f.sess.JournalPath())
	if os.IsNotExist(err) {
		return ""
	}
	if err != nil {
		f.t.Fatal(err)
	}
	return string(data)
}

// Once a segment is in the daily file, the journal no longer holds its
// prompts and replies: a journal flushed to its end is removed, and the
// flushed lines before unflushed ones are blanked in place. Every message
// still reaches the daily file exactly once.
func TestFlushedJournalIsForgotten(t *testing.T) {
	f := newFixture(t)
	for i := 0; i < 3; i++ {
		f.turn(fmt.Sprintf("question %d with hunter2isgood", i), fmt.Sprintf("answer %d", i), false)
	}
	if f.journal() == "" {
		t.Fatal("the hooks journaled nothing")
	}
	if res := f.flush(TriggerAuto, false); res.File == "" {
		t.Fatalf("no section: %+v", res)
	}
	if _, err := os.Stat(f.sess.JournalPath()); !os.IsNotExist(err) {
		t.Fatalf("the flushed journal is still there: %q", f.journal())
	}

	// A hook journals a turn while the distiller runs: that line is not
	// flushed yet and stays; the flushed lines before it are blanked.
	f.turn("question 3", "answer 3", false)
	o := f.opts(TriggerAuto, false)
	o.Distill = func(ctx context.Context, seg distill.Segment) string {
		f.turn("question 4 during the distill", "answer 4", false)
		return verbatim(ctx, seg)
	}
	if _, err := FlushSession(context.Background(), f.sess, o); err != nil {
		t.Fatal(err)
	}
	j := f.journal()
	if strings.Contains(j, "question 3") || !strings.Contains(j, "question 4 during the distill") {
		t.Fatalf("journal after a flush with a later turn:\n%q", j)
	}
	f.flush(TriggerSessionEnd, true)
	if _, err := os.Stat(f.sess.JournalPath()); !os.IsNotExist(err) {
		t.Fatalf("journal left after the final flush: %q", f.journal())
	}
	text := f.dailyText()
	for i := 0; i < 5; i++ {
		if n := strings.Count(text, fmt.Sprintf("user: question %d", i)); n != 1 {
			t.Errorf("question %d written %d times:\n%s", i, n, text)
		}
	}
	// The session goes on after its journal was removed.
	f.turn("question 5", "answer 5", false)
	f.flush(TriggerSessionEnd, true)
	if n := strings.Count(f.dailyText(), "user: question 5"); n != 1 {
		t.Fatalf("question 5 written %d times", n)
	}
}

// A flush that read the journal before another flusher wrote the segment
// and reset the journal's cursors must not write it again, even where the
// cursors came back to the same numbers (no transcript: the offsets are 0
// before and after).
func TestFlushAfterJournalResetWritesNothingTwice(t *testing.T) {
	f := newFixture(t)
	f.tr = ""
	for i := 0; i < 3; i++ {
		f.capture("user", fmt.Sprintf("q%d", i))
		f.capture("assistant", fmt.Sprintf("r%d", i))
	}
	o := f.opts(TriggerSessionEnd, true)
	inner := false
	o.Distill = func(ctx context.Context, seg distill.Segment) string {
		if !inner {
			inner = true
			if res := f.flush(TriggerSessionEnd, true); res.File == "" {
				t.Fatalf("the other flusher wrote nothing: %+v", res)
			}
		}
		return verbatim(ctx, seg)
	}
	res, err := FlushSession(context.Background(), f.sess, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Skipped != "flushed by another process" {
		t.Fatalf("the stale flusher wrote: %+v", res)
	}
	if n := strings.Count(f.dailyText(), "user: q1"); n != 1 {
		t.Fatalf("q1 written %d times:\n%s", n, f.dailyText())
	}
}
