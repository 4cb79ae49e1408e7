package shortterm

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/shortterm/capture"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

func userLine(text string) string {
	return fmt.Sprintf(`{"type":"user","message":{"role":"user","content":%q}}`+"\n", text)
}

func asstLine(id, text, tool, target string) string {
	content := ""
	if text != "" {
		content = fmt.Sprintf(`{"type":"text","text":%q}`, text)
	}
	if tool != "" {
		if content != "" {
			content += ","
		}
		content += fmt.Sprintf(`{"type":"tool_use","name":%q,"input":{"file_path":%q,"command":%q}}`, tool, target, target)
	}
	return fmt.Sprintf(`{"type":"assistant","message":{"id":%q,"role":"assistant","content":[%s]}}`+"\n", id, content)
}

func toolResult(size int) string {
	return fmt.Sprintf(`{"type":"user","toolUseResult":{"stdout":"x"},"message":{"role":"user","content":[{"type":"tool_result","content":%q}]}}`+"\n", strings.Repeat("y", size))
}

// TestStopCountsEveryMessageWithText follows the design's count: a turn of
// one prompt and three assistant messages with text is four replies, a tool
// call adds its one-line mention to the characters, tool output adds
// nothing, and the final message the transcript does not hold yet at Stop
// is counted once, not again when the transcript catches up.
func TestStopCountsEveryMessageWithText(t *testing.T) {
	dir := t.TempDir()
	tr := filepath.Join(dir, "t.jsonl")
	s := capture.Store{Root: filepath.Join(dir, "state")}.Session("p", "s1")
	meta := capture.Meta{Project: dir, Transcript: tr}
	write := func(lines ...string) {
		f, err := os.OpenFile(tr, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(strings.Join(lines, ""))
		f.Close()
	}
	if _, err := s.Capture(t0, "user", "fix the flaky test", meta); err != nil {
		t.Fatal(err)
	}
	write(userLine("fix the flaky test"),
		asstLine("m1", "Looking at the test.", "Read", "a_test.go"),
		toolResult(200000),
		asstLine("m2", "", "Bash", "go test ./..."),
		toolResult(1000),
		asstLine("m3", "The sleep races the worker.", "", ""),
		asstLine("m3", "", "Edit", "a_test.go"),
		toolResult(10))
	st, err := s.Capture(t0, "assistant", "I replaced the sleep with a channel.", meta)
	if err != nil {
		t.Fatal(err)
	}
	if st.SegReplies != 4 || st.Replies != 4 {
		t.Fatalf("replies %d (segment %d), want 4: prompt, two messages with text, the final one", st.Replies, st.SegReplies)
	}
	wantChars := len("fix the flaky test") + len("Looking at the test.") + len("The sleep races the worker.") +
		len("I replaced the sleep with a channel.") + len("Read a_test.go") + len("Bash go test ./...") + len("Edit a_test.go")
	if st.SegChars != wantChars {
		t.Errorf("chars %d, want %d (tool output must not count)", st.SegChars, wantChars)
	}
	if !st.Changed {
		t.Error("an Edit did not mark the session as changed")
	}
	// The transcript catches up with the final message, and a second turn.
	write(asstLine("m4", "I replaced the sleep with a channel.", "", ""), userLine("thanks, commit it"))
	s.Capture(t0, "user", "thanks, commit it", meta)
	write(asstLine("m5", "", "Bash", "git -C repo commit -m fix"), toolResult(10))
	st, _ = s.Capture(t0, "assistant", "Committed as abc1234.", meta)
	if st.Replies != 6 {
		t.Errorf("replies %d after the second turn, want 6 (the lagging message counted once)", st.Replies)
	}
}

// TestTrivialRuleAndForce: fewer than 4 replies is trivial only when
// nothing changed; Force (PreCompact) writes a one-exchange segment
// that the trivial rule would hold back.
func TestTrivialRuleAndForce(t *testing.T) {
	for _, tc := range []struct {
		name    string
		tool    string
		force   bool
		written bool
	}{
		{"read only", "Read", false, false},
		{"edited", "Edit", false, true},
		{"forced", "Read", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tr := filepath.Join(dir, "t.jsonl")
			s := capture.Store{Root: filepath.Join(dir, "state")}.Session("p", "s1")
			meta := capture.Meta{Project: dir, Transcript: tr}
			s.Capture(t0, "user", "rename the flag in main.go", meta)
			os.WriteFile(tr, []byte(userLine("rename the flag in main.go")+asstLine("m1", "", tc.tool, filepath.Join(dir, "main.go"))+toolResult(5)), 0o600)
			s.Capture(t0, "assistant", "Renamed the flag.", meta)
			res, err := FlushSession(t.Context(), s, FlushOptions{Trigger: TriggerSessionEnd, Now: t0, MinReplies: 4, Final: true, Force: tc.force,
				Distill: verbatim})
			if err != nil {
				t.Fatal(err)
			}
			if (res.File != "") != tc.written {
				t.Fatalf("written %v (%s), want %v", res.File != "", res.Skipped, tc.written)
			}
		})
	}
}

// TestIDEMarkupMatches: the hook's prompt with an IDE selection and the
// transcript's cleaned prompt are one message, written once.
func TestIDEMarkupMatches(t *testing.T) {
	hookPrompt := "<ide_selection>The user selected lines 3-9 of main.go</ide_selection>\nwhy does this loop never end?"
	items := []transcript.Item{u("why does this loop never end?"), a("The counter is never incremented.")}
	out, carried := Combine(items, []capture.Entry{ju(hookPrompt), ja("The counter is never incremented.")}, nil)
	if len(out) != 2 || len(carried) != 0 {
		t.Fatalf("got %q, %d carried", texts(out), len(carried))
	}
	// Not yet in the transcript: the carried prompt is shown cleaned.
	out, _ = Combine(nil, []capture.Entry{ju(hookPrompt)}, nil)
	if len(out) != 1 || out[0].Text != "why does this loop never end?" {
		t.Fatalf("got %q", texts(out))
	}
}

// TestCleanStaleRemovesOldTempFilesOnly: a killed write's temp file is
// removed once it is an hour old; a fresh one (a write in progress) and
// the session's own files stay; a second call the same day lists nothing.
func TestCleanStaleRemovesOldTempFilesOnly(t *testing.T) {
	store := capture.Store{Root: t.TempDir()}
	dir := filepath.Join(store.Root, "p")
	os.MkdirAll(dir, 0o755)
	old := filepath.Join(dir, ".s1.json.tmp-123")
	fresh := filepath.Join(dir, ".s2.json.tmp-456")
	keep := filepath.Join(dir, "s1.json")
	for _, f := range []string{old, fresh, keep} {
		os.WriteFile(f, []byte("{}"), 0o600)
	}
	now := time.Now()
	os.Chtimes(old, now.Add(-2*time.Hour), now.Add(-2*time.Hour))
	n, err := store.CleanStale("p", now)
	if err != nil || n != 1 {
		t.Fatalf("removed %d, %v", n, err)
	}
	if _, err := os.Stat(old); err == nil {
		t.Error("stale temp file kept")
	}
	for _, f := range []string{fresh, keep} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("%s removed", f)
		}
	}
	os.Chtimes(fresh, now.Add(-2*time.Hour), now.Add(-2*time.Hour))
	if n, _ := store.CleanStale("p", now); n != 0 {
		t.Errorf("second call the same day removed %d", n)
	}
}

// The memory folders are swept with the session dir, once a day: an
// hour-old temp file of a killed write goes, at any depth within bounds; a
// fresh one, a note, a look-alike name and anything reached through a
// symbolic link stay.
func TestCleanStaleSweepsMemoryFolders(t *testing.T) {
	store := capture.Store{Root: t.TempDir()}
	os.MkdirAll(filepath.Join(store.Root, "p"), 0o755)
	proj := t.TempDir()
	short := filepath.Join(proj, ".claude", "memory_short")
	long := filepath.Join(proj, ".claude", "memory_long")
	outside := t.TempDir()
	now := time.Now()
	old := now.Add(-2 * time.Hour)
	mk := func(p string, stale bool) string {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if stale {
			os.Chtimes(p, old, old)
		}
		return p
	}
	gone := []string{
		mk(filepath.Join(short, "daily", ".2026-11-30.md.tmp-123"), true),
		mk(filepath.Join(long, ".index.md.tmp-9"), true),
		mk(filepath.Join(long, "wiki", "decisions", ".x.md.tmp-42"), true),
	}
	stay := []string{
		mk(filepath.Join(short, "daily", ".2026-11-30.md.tmp-456"), false),
		mk(filepath.Join(short, "daily", "2026-11-30.md"), true),
		mk(filepath.Join(long, "notes.tmp-1"), true),
		mk(filepath.Join(long, ".draft.md.tmp-abc"), true),
		mk(filepath.Join(outside, ".secret.md.tmp-7"), true),
	}
	if err := os.Symlink(outside, filepath.Join(long, "wiki", "linked")); err != nil {
		t.Fatal(err)
	}
	n, err := store.CleanStale("p", now, short, long)
	if err != nil || n != len(gone) {
		t.Fatalf("removed %d, %v; want %d", n, err, len(gone))
	}
	for _, p := range gone {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("stale temp file kept: %s", p)
		}
	}
	for _, p := range stay {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s removed", p)
		}
	}
	// Once a day: a new stale file waits for tomorrow.
	late := mk(filepath.Join(long, ".log.md.tmp-5"), true)
	if n, _ := store.CleanStale("p", now, short, long); n != 0 {
		t.Errorf("second sweep the same day removed %d", n)
	}
	// The next day both it and the temp file that was fresh are stale.
	if n, _ := store.CleanStale("p", now.Add(24*time.Hour), short, long); n != 2 {
		t.Errorf("next day removed %d, want 2", n)
	}
	if _, err := os.Lstat(late); err == nil {
		t.Error("next day kept the stale file")
	}
	// A memory folder that is a symbolic link is not swept at all.
	linkProj := t.TempDir()
	os.MkdirAll(filepath.Join(linkProj, ".claude"), 0o755)
	linked := filepath.Join(linkProj, ".claude", "memory_long")
	os.Symlink(outside, linked)
	if n, err := capture.CleanStaleTemps(linked, now); n != 0 || err != nil {
		t.Errorf("swept through a linked folder: %d, %v", n, err)
	}
	if _, err := os.Lstat(stay[len(stay)-1]); err != nil {
		t.Error("a file outside the project was removed")
	}
}
