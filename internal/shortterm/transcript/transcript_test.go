package transcript

import (
	"bytes"
	"errors"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// short is an Item without its time, for readable expectations.
type short struct {
	Role, ID, Text string
	Tools          []nt
}

// nt is a tool call's name and target.
type nt struct{ Name, Target string }

func shorten(items []Item) []short {
	out := make([]short, 0, len(items))
	for _, it := range items {
		var tools []nt
		for _, t := range it.Tools {
			tools = append(tools, nt{t.Name, t.Target})
		}
		out = append(out, short{it.Role, it.ID, it.Text, tools})
	}
	return out
}

func TestReadRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file string
		want []short
	}{
		{"split.jsonl", []short{
			{RoleUser, "u1", "Fix the flaky test in store_test.go", nil},
			{RoleAssistant, "msg_1", "Let me look at the test.", []nt{
				{"Read", "/p/store_test.go"}, {"Bash", "go test ./store/..."}}},
			{RoleAssistant, "msg_2", "Fixed the race: the test now waits for the flush.", nil},
		}},
		{"noise.jsonl", []short{
			// A prompt typed while a turn ran that no user line
			// delivers later is a prompt all the same.
			{RoleUser, "queued-2026-11-30T09:00:00.000Z", "hello", nil},
			{RoleUser, "u1", "Which port does the server use?", nil},
			{RoleAssistant, "msg_1", "It listens on port 8080.", nil},
			// The compaction summary is kept, of its own Kind, without
			// Claude Code's framing.
			{RoleUser, "u4", "Summary: ...", nil},
			// Hook feedback (meta or not) and interruptions are kept,
			// marked by Kind.
			{RoleUser, "u6", "save memories first", nil},
			{RoleUser, "u7", "no isMeta flag here", nil},
			{RoleUser, "u10", "interrupted", nil},
			{RoleUser, "u11", "interrupted", nil},
			{RoleUser, "u12", "Update the README with the new port", nil},
		}},
		{"commands.jsonl", []short{
			{RoleUser, "u1", "/memtest:remember the sky is blue", nil},
			{RoleAssistant, "msg_1", "Noted.", nil},
			{RoleUser, "u3", "/clear", nil},
			{RoleUser, "u4", "! git status", nil},
			{RoleUser, "u6", "Why is this button grey? [Image #1]", nil},
			{RoleAssistant, "msg_2", "It is disabled until the form is valid.", []nt{
				{"Grep", "disabled="}, {"WebFetch", "https://example.com/docs"}, {"TodoWrite", ""}}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join("testdata", tt.file)
			items, next, err := (Reader{}).Read(path, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := shorten(items); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("items:\n got %+v\nwant %+v", got, tt.want)
			}
			if size := fileSize(t, path); next != size {
				t.Errorf("next = %d, want file size %d", next, size)
			}
		})
	}
}

func TestReadTimeIsFirstLine(t *testing.T) {
	t.Parallel()
	items, _, err := (Reader{}).Read(filepath.Join("testdata", "split.jsonl"), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The thinking-only first line carries no dialogue; the text line does.
	want := time.Date(2026, 11, 30, 9, 0, 2, 0, time.UTC)
	if got := items[1].Time; !got.Equal(want) {
		t.Errorf("merged message time = %v, want the first dialogue line's %v", got, want)
	}
}

// fixtures lists the project's own testdata and, when present, the shared
// real transcripts.
func fixtures(t testing.TB) []string {
	own, err := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if err != nil || len(own) == 0 {
		t.Fatalf("no testdata fixtures: %v", err)
	}
	if dir, ok := testfile.SharedIfPresent(t, "fixtures", "transcripts"); ok {
		shared, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
		own = append(own, shared...)
	}
	return own
}

func sharedDir(t *testing.T) string {
	t.Helper()
	return testfile.Shared(t, "fixtures", "transcripts")
}

func TestReadChunkedEqualsWhole(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(1))
	for _, path := range fixtures(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			whole, end, err := (Reader{}).ReadLog(path, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			size := fileSize(t, path)
			for round := 0; round < 8; round++ {
				// Windows from a few bytes (mostly mid-line) to a few lines.
				maxWindow := []int64{7, 300, 4000, 60000}[round%4]
				var got Log
				var from int64
				for calls := 0; from < size; calls++ {
					if calls > int(size) {
						t.Fatalf("no progress at offset %d", from)
					}
					n := 1 + rng.Int63n(maxWindow)
					l, next, err := (Reader{}).ReadLog(path, from, n)
					if err != nil {
						t.Fatal(err)
					}
					if next <= from {
						t.Fatalf("(Reader{}).Read(%d, %d) made no progress", from, n)
					}
					got = got.Append(l)
					from = next
				}
				if from != end {
					t.Errorf("chunked end = %d, whole end = %d", from, end)
				}
				if g, w := exported(got), exported(whole); !reflect.DeepEqual(g, w) {
					t.Fatalf("window %d: chunked read differs from whole read:\n got %+v %+v\nwant %+v %+v",
						maxWindow, shorten(g.Items), shorten(g.Side), shorten(w.Items), shorten(w.Side))
				}
			}
		})
	}
}

// exported is what a Log shows its readers.
func exported(l Log) Log {
	return Log{Items: orNil(l.Items), Side: orNil(l.Side), Title: l.Title, SessionID: l.SessionID, Cwd: l.Cwd}
}

func orNil(items []Item) []Item {
	if len(items) == 0 {
		return nil
	}
	return items
}

func TestReadSplitMessageAcrossCalls(t *testing.T) {
	t.Parallel()
	path := filepath.Join("testdata", "split.jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The first three lines end with the text part of msg_1; its tool calls follow.
	cut := int64(nthNewline(data, 3) + 1)
	first, next, err := (Reader{}).Read(path, 0, cut)
	if err != nil {
		t.Fatal(err)
	}
	if next != cut {
		t.Fatalf("next = %d, want %d", next, cut)
	}
	rest, _, err := (Reader{}).Read(path, next, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != 2 || first[1].ID != "msg_1" || len(first[1].Tools) != 0 {
		t.Fatalf("first call: %+v", shorten(first))
	}
	if rest[0].ID != "msg_1" || rest[0].Text != "" || len(rest[0].Tools) != 2 {
		t.Fatalf("second call should continue msg_1 with only its tools: %+v", shorten(rest))
	}
	merged := Merge(first, rest)
	if len(merged) != 3 || len(merged[1].Tools) != 2 || merged[1].Text != "Let me look at the test." {
		t.Errorf("merged: %+v", shorten(merged))
	}
	if len(first[1].Tools) != 0 {
		t.Error("Merge modified its input")
	}
}

func TestReadTruncatedLastLine(t *testing.T) {
	t.Parallel()
	full, err := os.ReadFile(filepath.Join("testdata", "split.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lastStart := nthNewline(full, 7) + 1
	path := filepath.Join(t.TempDir(), "s.jsonl")
	cutAt := lastStart + (len(full)-lastStart)/2
	writeFile(t, path, full[:cutAt])

	items, next, err := (Reader{}).Read(path, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if next != int64(lastStart) {
		t.Fatalf("next = %d, want %d (start of the truncated line)", next, lastStart)
	}
	if len(items) != 2 {
		t.Fatalf("got %d items before the truncated line, want 2", len(items))
	}

	// The writer finishes the line: the next call picks it up.
	writeFile(t, path, full)
	more, next, err := (Reader{}).Read(path, next, 0)
	if err != nil {
		t.Fatal(err)
	}
	if next != int64(len(full)) || len(more) != 1 || more[0].ID != "msg_2" {
		t.Errorf("after completion: next %d, items %+v", next, shorten(more))
	}
}

func TestReadUnterminatedCompleteLine(t *testing.T) {
	t.Parallel()
	line := `{"type":"user","uuid":"u1","message":{"role":"user","content":"no newline at the end"}}`
	path := filepath.Join(t.TempDir(), "s.jsonl")
	writeFile(t, path, []byte(line))
	items, next, err := (Reader{}).Read(path, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if next != int64(len(line)) || len(items) != 1 || items[0].Text != "no newline at the end" {
		t.Errorf("next %d, items %+v", next, shorten(items))
	}
}

func TestReadHugeLine(t *testing.T) {
	t.Parallel()
	image := strings.Repeat("QUJD", 512<<10) // 2 MiB of base64
	var b bytes.Buffer
	b.WriteString(`{"type":"user","uuid":"u1","message":{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + image + `"}},{"type":"text","text":"what is in this screenshot?"}]}}` + "\n")
	b.WriteString(`{"type":"assistant","uuid":"a1","message":{"id":"msg_1","role":"assistant","content":[{"type":"text","text":"A login form."}]}}` + "\n")
	path := filepath.Join(t.TempDir(), "big.jsonl")
	writeFile(t, path, b.Bytes())

	items, next, err := (Reader{}).Read(path, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []short{{RoleUser, "u1", "what is in this screenshot?", nil}, {RoleAssistant, "msg_1", "A login form.", nil}}
	if got := shorten(items); !reflect.DeepEqual(got, want) || next != int64(b.Len()) {
		t.Errorf("got %+v next %d, want %+v next %d", got, next, want, b.Len())
	}

	// A window smaller than the line still consumes it, and only it.
	items, next, err = (Reader{}).Read(path, 0, 64<<10)
	if err != nil {
		t.Fatal(err)
	}
	firstLen := int64(bytes.IndexByte(b.Bytes(), '\n') + 1)
	if next != firstLen || len(items) != 1 || items[0].ID != "u1" {
		t.Errorf("small window: next %d (want %d), items %+v", next, firstLen, shorten(items))
	}
}

func TestReadStopsBeforeHugeLinePastWindow(t *testing.T) {
	t.Parallel()
	first := `{"type":"user","uuid":"u1","message":{"role":"user","content":"short"}}` + "\n"
	huge := `{"type":"user","uuid":"u2","message":{"role":"user","content":"` + strings.Repeat("y", 2<<20) + `"}}` + "\n"
	path := filepath.Join(t.TempDir(), "t.jsonl")
	writeFile(t, path, []byte(first+huge))

	items, next, err := (Reader{}).Read(path, 0, 4096)
	if err != nil {
		t.Fatal(err)
	}
	if next != int64(len(first)) || len(items) != 1 || items[0].ID != "u1" {
		t.Fatalf("next %d (want %d), items %+v", next, len(first), shorten(items))
	}
	items, next, err = (Reader{}).Read(path, next, 4096)
	if err != nil {
		t.Fatal(err)
	}
	if next != int64(len(first)+len(huge)) || len(items) != 1 || items[0].ID != "u2" {
		t.Errorf("second call: next %d, items %d", next, len(items))
	}
}

func TestReadEmptyAndMissing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.jsonl")
	writeFile(t, empty, nil)
	items, next, err := (Reader{}).Read(empty, 0, 0)
	if err != nil || next != 0 || len(items) != 0 {
		t.Errorf("empty file: items %v next %d err %v", items, next, err)
	}

	_, next, err = (Reader{}).Read(filepath.Join(dir, "missing.jsonl"), 42, 0)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: err = %v, want fs.ErrNotExist", err)
	}
	if next != 42 {
		t.Errorf("missing file: next = %d, want the offset unchanged", next)
	}

	if _, _, err := (Reader{}).Read(empty, -1, 0); err == nil {
		t.Error("negative offset: want an error")
	}
}

func TestReadPastEOF(t *testing.T) {
	t.Parallel()
	path := filepath.Join("testdata", "split.jsonl")
	size := fileSize(t, path)
	items, next, err := (Reader{}).Read(path, size+100, 0)
	if err != nil || len(items) != 0 || next != size+100 {
		t.Errorf("offset past EOF: items %v next %d err %v", items, next, err)
	}
}

func TestReadInvalidUTF8(t *testing.T) {
	t.Parallel()
	line := []byte(`{"type":"user","uuid":"u1","message":{"role":"user","content":"caf` + "\xe9 au lait \xff" + `"}}` + "\n")
	path := filepath.Join(t.TempDir(), "bad.jsonl")
	writeFile(t, path, line)
	items, _, err := (Reader{}).Read(path, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 1 {
		t.Fatalf("got %d items, want the repaired prompt", len(items))
	}
	if got := items[0].Text; !utf8.ValidString(got) || got != "caf\uFFFD au lait \uFFFD" {
		t.Errorf("text = %q", got)
	}
}

func TestReadCRLFAndBlankLines(t *testing.T) {
	t.Parallel()
	data := "\r\n\n" + `{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}` + "\r\n\n"
	path := filepath.Join(t.TempDir(), "crlf.jsonl")
	writeFile(t, path, []byte(data))
	items, next, err := (Reader{}).Read(path, 0, 0)
	if err != nil || len(items) != 1 || items[0].Text != "hi" || next != int64(len(data)) {
		t.Errorf("items %+v next %d err %v", shorten(items), next, err)
	}
}

func TestChars(t *testing.T) {
	t.Parallel()
	items := []Item{
		{Role: RoleUser, Text: "привет"}, // 6 runes, 12 bytes
		{Role: RoleAssistant, Text: "ok", Tools: []Tool{
			{Name: "Bash", Target: "go test ./...\nmore"},
			{Name: "TodoWrite"},
			{Name: "Bash", Target: strings.Repeat("x", 500)},
		}},
	}
	want := 6 + 2 + utf8.RuneCountInString("Bash go test ./... …") + len("TodoWrite") + len("Bash ") + toolLineMax
	if got := Chars(items); got != want {
		t.Errorf("Chars = %d, want %d", got, want)
	}
	if Chars(nil) != 0 {
		t.Error("Chars(nil) != 0")
	}
}

func TestRealTranscripts(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join(sharedDir(t), "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts among the shared fixtures: %v", err)
	}
	for _, path := range files {
		items, next, err := (Reader{}).Read(path, 0, 0)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if next != fileSize(t, path) {
			t.Errorf("%s: stopped at %d of %d", filepath.Base(path), next, fileSize(t, path))
		}
		name := filepath.Base(path)
		subagent := strings.Contains(name, "agent-")
		noDialogue := strings.Contains(name, "a95fea4a")
		if (subagent || noDialogue) != (len(items) == 0) {
			t.Errorf("%s: %d items; subagent/no-dialogue files must give none, others some", name, len(items))
		}
		ids := map[string]bool{}
		for _, it := range items {
			if it.Role != RoleUser && it.Role != RoleAssistant || it.ID == "" || it.Time.IsZero() {
				t.Errorf("%s: malformed item %+v", name, it)
			}
			if it.Text == "" && len(it.Tools) == 0 {
				t.Errorf("%s: empty item %s", name, it.ID)
			}
			if ids[it.ID] {
				t.Errorf("%s: id %s twice", name, it.ID)
			}
			ids[it.ID] = true
			for _, noise := range []string{"[Request interrupted", "<command-name>", "<local-command", "Caveat:", "This session is being continued", "<ide_"} {
				if strings.Contains(it.Text, noise) {
					t.Errorf("%s: %s carries noise %q: %.80q", name, it.ID, noise, it.Text)
				}
			}
		}
	}
}

func TestRealE2ESession(t *testing.T) {
	t.Parallel()
	path := filepath.Join(sharedDir(t), "claude-code-2.1.197__e2e-session.jsonl")
	items, _, err := (Reader{}).Read(path, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	feedback := ""
	summaries := 0
	for _, it := range items {
		if it.Kind == KindHookFeedback {
			feedback = it.Text // the hook that blocked a turn: kept, marked
			continue
		}
		if it.Kind == KindCompactSummary {
			// Claude Code's summary: kept, marked, without its framing.
			if !strings.HasPrefix(it.Text, "Summary:\nMOCK-SUMMARY") || strings.Contains(it.Text, "If you need specific details") {
				t.Errorf("compaction summary %q", it.Text)
			}
			summaries++
			continue
		}
		texts = append(texts, it.Text)
	}
	if summaries != 2 {
		t.Errorf("%d compaction summaries, want the two of the session", summaries)
	}
	if !strings.Contains(feedback, "MARKER-STOP-BLOCK") {
		t.Errorf("the Stop hook's blocking feedback is not kept as hook feedback: %q", feedback)
	}
	all := strings.Join(texts, "\n")
	for _, want := range []string{"hello TRIGGER_BASH", "/memtest:remember the sky is blue", "/compact keep the facts", "turn six"} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q", want)
		}
	}
	for _, not := range []string{"MOCK-SUMMARY", "CMDBODY", "MARKER-STOP-BLOCK", "Base directory for this skill", "Compacted"} {
		if strings.Contains(all, not) {
			t.Errorf("noise %q leaked into the dialogue", not)
		}
	}
}

func nthNewline(data []byte, n int) int {
	pos := -1
	for i := 0; i < n; i++ {
		j := bytes.IndexByte(data[pos+1:], '\n')
		if j < 0 {
			return -1
		}
		pos += j + 1
	}
	return pos
}

func fileSize(t testing.TB, path string) int64 {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

func writeFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
