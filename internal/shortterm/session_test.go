package shortterm

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/shortterm/capture"
	"github.com/cerebro-mem/cerebro/internal/shortterm/distill"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

var t0 = time.Date(2026, 11, 30, 9, 0, 0, 0, time.Local)

func u(text string) transcript.Item { return transcript.Item{Role: "user", Text: text} }
func a(text string) transcript.Item { return transcript.Item{Role: "assistant", Text: text} }
func ju(text string) capture.Entry  { return capture.Entry{Role: "user", Text: text} }
func ja(text string) capture.Entry  { return capture.Entry{Role: "assistant", Text: text} }

func texts(items []transcript.Item) string {
	var s []string
	for _, it := range items {
		s = append(s, it.Role[:1]+":"+it.Text)
	}
	return strings.Join(s, "|")
}

func TestCombine(t *testing.T) {
	tests := []struct {
		name        string
		items       []transcript.Item
		entries     []capture.Entry
		carried     []capture.Carry
		want        string
		wantCarried int
	}{
		{"transcript complete", []transcript.Item{u("q1"), a("r1")}, []capture.Entry{ju("q1"), ja("r1")}, nil, "u:q1|a:r1", 0},
		{"stop lag: last reply only in journal", []transcript.Item{u("q1"), a("working"), u("q2")}, []capture.Entry{ju("q1"), ja("r1"), ju("q2"), ja("r2")}, nil,
			"u:q1|a:working|u:q2|a:r2", 1},
		{"no transcript: journal is everything", nil, []capture.Entry{ju("q1"), ja("r1")}, nil, "u:q1|a:r1", 2},
		{"carried copy dropped", []transcript.Item{a("r2"), u("q3"), a("r3")}, []capture.Entry{ju("q3"), ja("r3")}, []capture.Carry{{Key: capture.MessageKey("assistant", "r2")}},
			"u:q3|a:r3", 0},
		{"whitespace differences match", []transcript.Item{u("fix  the\nbug"), a("done.\n\nok")}, []capture.Entry{ju("fix the bug"), ja("done.\nok")}, nil,
			"u:fix  the\nbug|a:done.\n\nok", 0},
		{"slash command markup matches the typed command", []transcript.Item{
			u("<command-message>cerebro:remember</command-message>\n<command-name>/cerebro:remember</command-name>\n<command-args>the sky is blue</command-args>"), a("ok")},
			[]capture.Entry{ju("/cerebro:remember the sky is blue"), ja("ok")}, nil, "", 0},
		{"unmatched entry before a match is covered by the transcript", []transcript.Item{u("QUESTION ONE (edited)"), a("r1"), u("q2"), a("r2")},
			[]capture.Entry{ju("question one"), ja("r1"), ju("q2"), ja("r2")}, nil, "u:QUESTION ONE (edited)|a:r1|u:q2|a:r2", 0},
		{"repeated prompt counted twice", []transcript.Item{u("continue"), a("r1"), u("continue")}, []capture.Entry{ju("continue"), ja("r1"), ju("continue"), ja("r2")}, nil,
			"u:continue|a:r1|u:continue|a:r2", 1},
		{"carried waits while the transcript has nothing newer", []transcript.Item{u("q3")}, []capture.Entry{ju("q3")}, []capture.Carry{{Key: capture.MessageKey("assistant", "gone"), Time: t0}}, "u:q3", 1},
		{"carried given up once the transcript is well past it", []transcript.Item{{Role: "user", Text: "q3", Time: t0.Add(time.Hour)}}, []capture.Entry{ju("q3")},
			[]capture.Carry{{Key: capture.MessageKey("assistant", "gone"), Time: t0}}, "u:q3", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, carried := Combine(tt.items, tt.entries, tt.carried)
			if tt.want != "" && texts(got) != tt.want {
				t.Fatalf("items = %q, want %q", texts(got), tt.want)
			}
			if tt.want == "" && len(got) != len(tt.items) {
				t.Fatalf("items = %q, want the transcript's %d items", texts(got), len(tt.items))
			}
			if len(carried) != tt.wantCarried {
				t.Fatalf("carried = %d, want %d", len(carried), tt.wantCarried)
			}
		})
	}
}

// fixture is a session with a transcript file the test grows.
type fixture struct {
	t          *testing.T
	sess       *capture.Session
	root, tr   string
	now        time.Time
	msgCounter int
}

func newFixture(t *testing.T) *fixture {
	dir := t.TempDir()
	root := filepath.Join(dir, "proj")
	os.MkdirAll(root, 0o755)
	f := &fixture{t: t, root: root, tr: filepath.Join(dir, "t.jsonl"), now: t0}
	f.sess = capture.Store{Root: filepath.Join(dir, "state")}.Session("proj-1", "sess-abcdef123")
	return f
}

func (f *fixture) line(role, text string) {
	f.msgCounter++
	var l string
	if role == "user" {
		l = fmt.Sprintf(`{"type":"user","timestamp":"2026-11-30T09:00:00Z","message":{"role":"user","content":%q}}`, text)
	} else {
		l = fmt.Sprintf(`{"type":"assistant","timestamp":"2026-11-30T09:00:01Z","message":{"id":"m%d","role":"assistant","content":[{"type":"text","text":%q}]}}`, f.msgCounter, text)
	}
	fh, err := os.OpenFile(f.tr, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		f.t.Fatal(err)
	}
	fh.WriteString(l + "\n")
	fh.Close()
}

func (f *fixture) capture(role, text string) *capture.State {
	f.now = f.now.Add(time.Minute)
	st, err := f.sess.Capture(f.now, role, text, capture.Meta{Project: f.root, Transcript: f.tr})
	if err != nil {
		f.t.Fatal(err)
	}
	return st
}

// turn plays one exchange the way Claude Code does: the prompt reaches the
// transcript, the reply reaches it only after Stop.
func (f *fixture) turn(q, r string, lagged bool) {
	f.capture("user", q)
	f.line("user", q)
	if !lagged {
		f.line("assistant", r)
	}
	f.capture("assistant", r)
}

func (f *fixture) flush(trigger string, final bool) FlushResult {
	f.t.Helper()
	res, err := FlushSession(context.Background(), f.sess, f.opts(trigger, final))
	if err != nil {
		f.t.Fatal(err)
	}
	return res
}

func (f *fixture) opts(trigger string, final bool) FlushOptions {
	return FlushOptions{Trigger: trigger, Now: f.now, MinReplies: 4, Final: final, Distill: verbatim}
}

// verbatim lists every item of the segment, one line each, so the tests
// see exactly what a flush handed the distiller.
func verbatim(_ context.Context, seg distill.Segment) string {
	var b strings.Builder
	b.WriteString("### Items\n")
	for _, it := range seg.Items {
		fmt.Fprintf(&b, "- %s: %s\n", it.Role, it.Text)
	}
	return b.String()
}

func (f *fixture) dailyText() string {
	data, _ := os.ReadFile(filepath.Join(f.root, ".claude", "memory_short", "daily", "2026-11-30.md"))
	return string(data)
}

func TestLaggedReplyWrittenOnceAcrossFlushes(t *testing.T) {
	f := newFixture(t)
	f.turn("first question", "first answer", false)
	f.turn("second question", "second answer", true) // Stop fires before the transcript has it
	if res := f.flush(TriggerAuto, false); res.File == "" {
		t.Fatalf("no section written: %+v", res)
	}
	f.line("assistant", "second answer") // the lagged line lands
	f.turn("third question", "third answer", false)
	f.turn("fourth question", "fourth answer", false)
	f.flush(TriggerSessionEnd, true)
	text := f.dailyText()
	for _, s := range []string{"user: first question\n", "assistant: first answer\n", "user: second question\n", "assistant: second answer\n",
		"user: third question\n", "assistant: fourth answer\n"} {
		if n := strings.Count(text, s); n != 1 {
			t.Errorf("%q appears %d times in:\n%s", s, n, text)
		}
	}
	if strings.Count(text, "\n## ") != 2 {
		t.Fatalf("want 2 sections:\n%s", text)
	}
	if f.sess.IsPending() {
		t.Fatal("session still pending after its final flush")
	}
}

func TestTrivialSessionNotSaved(t *testing.T) {
	f := newFixture(t)
	f.turn("hi", "hello", false)
	if res := f.flush(TriggerAuto, false); res.File != "" || !f.sess.IsPending() {
		t.Fatalf("an auto flush of a trivial segment must wait: %+v", res)
	}
	if res := f.flush(TriggerSessionEnd, true); res.File != "" || !strings.Contains(res.Skipped, "trivial") {
		t.Fatalf("trivial session saved: %+v", res)
	}
	if f.dailyText() != "" || f.sess.IsPending() {
		t.Fatal("trivial session left a file or a pending marker")
	}
}

func TestSessionThatFlushedKeepsFlushing(t *testing.T) {
	f := newFixture(t)
	f.turn("q1", "r1", false)
	f.turn("q2", "r2", false)
	f.flush(TriggerAuto, false)
	f.turn("q3", "r3", false)
	if res := f.flush(TriggerSessionEnd, true); res.File == "" {
		t.Fatalf("a one-turn tail of a saved session was dropped: %+v", res)
	}
}

func TestMissingTranscriptUsesJournal(t *testing.T) {
	f := newFixture(t)
	f.tr = filepath.Join(t.TempDir(), "never-written.jsonl")
	for i := 0; i < 3; i++ {
		f.capture("user", fmt.Sprintf("q%d", i))
		f.capture("assistant", fmt.Sprintf("r%d", i))
	}
	f.flush(TriggerSessionEnd, true)
	text := f.dailyText()
	for i := 0; i < 3; i++ {
		if !strings.Contains(text, fmt.Sprintf("q%d", i)) || !strings.Contains(text, fmt.Sprintf("r%d", i)) {
			t.Fatalf("turn %d lost:\n%s", i, text)
		}
	}
}

func TestConcurrentFlushersWriteOnce(t *testing.T) {
	f := newFixture(t)
	for i := 0; i < 5; i++ {
		f.turn(fmt.Sprintf("question %d", i), fmt.Sprintf("answer %d", i), false)
	}
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := FlushSession(context.Background(), f.sess, f.opts(TriggerRecovery, true)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n := strings.Count(f.dailyText(), "\n## "); n != 1 {
		t.Fatalf("%d sections, want 1:\n%s", n, f.dailyText())
	}
}

// TestCrashAtEveryPointIsExactlyOnce stops a flush at each point (as a
// killed process would: nothing after it runs) and checks that the next
// flush writes the segment exactly once.
func TestCrashAtEveryPointIsExactlyOnce(t *testing.T) {
	for _, point := range []string{"after-read", "after-distill", "after-intent", "after-append", "after-commit", "after-forget"} {
		t.Run(point, func(t *testing.T) {
			f := newFixture(t)
			for i := 0; i < 3; i++ {
				f.turn(fmt.Sprintf("question %d", i), fmt.Sprintf("answer %d", i), false)
			}
			o := f.opts(TriggerSessionEnd, true)
			o.Crash = func(p string) {
				if p == point {
					panic("killed")
				}
			}
			func() {
				defer func() { recover() }()
				FlushSession(context.Background(), f.sess, o)
			}()
			f.flush(TriggerRecovery, true)
			f.flush(TriggerRecovery, true)
			text := f.dailyText()
			if n := strings.Count(text, "question 1"); n != 1 {
				t.Fatalf("segment written %d times:\n%s", n, text)
			}
		})
	}
}

func TestKilledCaptureIsReconciled(t *testing.T) {
	f := newFixture(t)
	f.capture("user", "q1")
	// A hook killed after its journal append but before its state write,
	// and one killed mid-append (a torn line).
	fh, _ := os.OpenFile(f.sess.JournalPath(), os.O_APPEND|os.O_WRONLY, 0)
	fh.WriteString(`{"r":"assistant","t":"r1","ts":"2026-11-30T09:03:00Z"}` + "\n" + `{"r":"user","t":"tor`)
	fh.Close()
	st := f.capture("user", "q2")
	if st.SegReplies != 3 || st.Replies != 3 {
		t.Fatalf("counters after reconcile: seg %d total %d, want 3 and 3", st.SegReplies, st.Replies)
	}
	entries, _, err := f.sess.ReadJournal(0)
	if err != nil || len(entries) != 3 || entries[2].Text != "q2" {
		t.Fatalf("journal = %+v, %v", entries, err)
	}
}

func FuzzJournal(f *testing.F) {
	f.Add([]byte(`{"r":"user","t":"hi","ts":"2026-11-30T09:00:00Z"}` + "\n" + `{"r":"x"}` + "\n{bad"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		s := capture.Store{Root: dir}.Session("p", "s")
		os.MkdirAll(filepath.Dir(s.JournalPath()), 0o755)
		os.WriteFile(s.JournalPath(), data, 0o600)
		entries, end, err := s.ReadJournal(0)
		if err != nil || end > int64(len(data)) {
			t.Fatalf("end %d of %d, err %v", end, len(data), err)
		}
		for _, e := range entries {
			if e.Role != "user" && e.Role != "assistant" {
				t.Fatalf("bad role %q", e.Role)
			}
		}
	})
}

// TestBrokenStateFallsBackToDurableCopy: the hot path writes the state
// without fsync; if a power cut leaves it broken, the cursors come from the
// last flush's durable copy and nothing is written twice.
func TestBrokenStateFallsBackToDurableCopy(t *testing.T) {
	f := newFixture(t)
	for i := 0; i < 3; i++ {
		f.turn(fmt.Sprintf("question %d", i), fmt.Sprintf("answer %d", i), false)
	}
	f.flush(TriggerAuto, false)
	f.turn("question 3", "answer 3", false)
	if err := os.WriteFile(f.sess.StatePath(), []byte{0, 0, 0}, 0o600); err != nil {
		t.Fatal(err)
	}
	st := f.capture("user", "question 4")
	if st.SegReplies != 3 {
		t.Fatalf("segment counters not rebuilt: %d replies, want 3", st.SegReplies)
	}
	f.line("user", "question 4")
	f.flush(TriggerSessionEnd, true)
	text := f.dailyText()
	for i := 0; i < 5; i++ {
		if n := strings.Count(text, fmt.Sprintf("user: question %d\n", i)); n != 1 {
			t.Fatalf("question %d written %d times:\n%s", i, n, text)
		}
	}
}

func TestResumedSessionSkipsHistoryBeforeCerebro(t *testing.T) {
	f := newFixture(t)
	for i := 0; i < 5; i++ {
		f.line("user", fmt.Sprintf("old question %d", i))
		f.line("assistant", fmt.Sprintf("old answer %d", i))
	}
	if _, err := f.sess.Touch(f.now, capture.Meta{Project: f.root, Transcript: f.tr}, false); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		f.turn(fmt.Sprintf("new question %d", i), fmt.Sprintf("new answer %d", i), false)
	}
	f.flush(TriggerSessionEnd, true)
	text := f.dailyText()
	if strings.Contains(text, "old question") || !strings.Contains(text, "user: new question 1\n") {
		t.Fatalf("history handling wrong:\n%s", text)
	}
}

// TestTrivialEndThenResumeKeepsEarlierTurns: `claude -p --resume` ends the
// session after each turn; a first turn that looked trivial at its end
// must still be saved once the session grows.
func TestTrivialEndThenResumeKeepsEarlierTurns(t *testing.T) {
	f := newFixture(t)
	f.turn("first question", "first answer", false)
	if res := f.flush(TriggerSessionEnd, true); res.File != "" || f.sess.IsPending() {
		t.Fatalf("trivial end: %+v, pending %v", res, f.sess.IsPending())
	}
	f.turn("second question", "second answer", false)
	if !f.sess.IsPending() {
		t.Fatal("resumed session not pending")
	}
	f.flush(TriggerSessionEnd, true)
	text := f.dailyText()
	for _, s := range []string{"user: first question\n", "assistant: first answer\n", "user: second question\n"} {
		if strings.Count(text, s) != 1 {
			t.Fatalf("%q not written once:\n%s", s, text)
		}
	}
}
