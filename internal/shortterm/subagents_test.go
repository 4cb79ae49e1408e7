package shortterm

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/shortterm/distill"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// agentFile writes a subagent's transcript: its lines are sidechain
// lines naming the parent session; it writes one file and succeeds or is
// refused.
func agentFile(t *testing.T, path, session, file string, refused bool) {
	t.Helper()
	result := map[string]any{"type": "tool_result", "tool_use_id": "w1", "content": "File created successfully at: " + file}
	var tur any = map[string]any{"type": "create", "filePath": file}
	if refused {
		result["content"], result["is_error"] = "Claude requested permissions to write to "+file+", but you haven't granted it yet.", true
		tur = "Error: refused"
	}
	lines := []map[string]any{
		{"type": "user", "isSidechain": true, "sessionId": session, "uuid": "s1", "message": map[string]any{"role": "user", "content": "Write " + file}},
		{"type": "assistant", "isSidechain": true, "sessionId": session, "uuid": "s2", "timestamp": "2026-11-30T09:00:01Z",
			"message": map[string]any{"id": "sm1", "role": "assistant", "content": []any{
				map[string]any{"type": "tool_use", "id": "w1", "name": "Write", "input": map[string]any{"file_path": file, "content": "x"}}}}},
		{"type": "user", "isSidechain": true, "sessionId": session, "uuid": "s3", "toolUseResult": tur,
			"message": map[string]any{"role": "user", "content": []any{result}}},
	}
	var b strings.Builder
	for _, l := range lines {
		data, _ := json.Marshal(l)
		b.Write(data)
		b.WriteByte('\n')
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func written(items []transcript.Item) map[string]transcript.Status {
	out := map[string]transcript.Status{}
	for _, it := range items {
		for _, tool := range it.Tools {
			if tool.Result != nil {
				out[tool.Target] = tool.Result.Status
			}
		}
	}
	return out
}

// TestSubagentsOfEveryLayout: the subagents' tool calls are read, each
// with its result, from the 2.1 layout (<session>/subagents/) and the 2.0
// one (beside the session, the session's by the id its lines carry); the
// compaction agent and other sessions' agents are not.
func TestSubagentsOfEveryLayout(t *testing.T) {
	dir := t.TempDir()
	tr := filepath.Join(dir, "S.jsonl")
	agentFile(t, filepath.Join(dir, "S", "subagents", "agent-a1.jsonl"), "S", "/p/nested.go", false)
	agentFile(t, filepath.Join(dir, "S", "subagents", "agent-acompact-f0.jsonl"), "S", "/p/compact.go", false)
	agentFile(t, filepath.Join(dir, "agent-b2.jsonl"), "S", "/p/flat.go", false)
	agentFile(t, filepath.Join(dir, "agent-b3.jsonl"), "S", "/p/refused.go", true)
	agentFile(t, filepath.Join(dir, "agent-c3.jsonl"), "OTHER", "/p/other.go", false)
	old := filepath.Join(dir, "agent-d4.jsonl")
	agentFile(t, old, "S", "/p/old.go", false)
	since := time.Now().Add(-time.Minute)
	if err := os.Chtimes(old, since.Add(-time.Hour), since.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}

	items, offsets := readSubagents(transcript.Reader{}, tr, "S", nil, since)
	got := written(items)
	want := map[string]transcript.Status{"/p/nested.go": transcript.StatusOK, "/p/flat.go": transcript.StatusOK, "/p/refused.go": transcript.StatusRefused}
	if len(got) != len(want) {
		t.Errorf("calls read: %v, want %v", got, want)
	}
	for f, st := range want {
		if got[f] != st {
			t.Errorf("%s: %q, want %q", f, got[f], st)
		}
	}
	// Read again from the offsets: nothing new.
	again, _ := readSubagents(transcript.Reader{}, tr, "S", offsets, since)
	if len(again) != 0 {
		t.Errorf("read twice: %v", written(again))
	}
}

// TestFlushHeadsSectionWithTitleAndCountsSubagents: a flush puts the
// session's title in the heading, keeps it for the next section, and
// lists what a subagent wrote among the files changed.
func TestFlushHeadsSectionWithTitleAndCountsSubagents(t *testing.T) {
	f := newFixture(t)
	tr := filepath.Join(filepath.Dir(f.tr), "S.jsonl")
	f.tr = tr
	f.turn("Build the server", "The server is built.", false)
	appendRaw(t, tr, `{"type":"ai-title","aiTitle":"Build the server","sessionId":"S"}`)
	f.turn("and the client", "The client is built.", false)
	agentFile(t, filepath.Join(strings.TrimSuffix(tr, ".jsonl"), "subagents", "agent-a1.jsonl"), "S", filepath.Join(f.root, "server.go"), false)
	o := f.opts(TriggerAuto, false)
	o.Distill = func(_ context.Context, seg distill.Segment) string { return distill.Extractive(seg) }
	if _, err := FlushSession(context.Background(), f.sess, o); err != nil {
		t.Fatal(err)
	}
	f.turn("now the docs", "The docs are written.", false)
	f.turn("and the tests", "The tests pass.", false)
	o.Trigger, o.Final, o.Now = TriggerSessionEnd, true, f.now
	if _, err := FlushSession(context.Background(), f.sess, o); err != nil {
		t.Fatal(err)
	}
	text := f.dailyText()
	if strings.Count(text, "· auto · Build the server\n") != 1 || strings.Count(text, "· session-end · Build the server\n") != 1 {
		t.Errorf("headings lack the title:\n%s", text)
	}
	if !strings.Contains(text, "- changed: `server.go`") {
		t.Errorf("the subagent's file is not among the changed:\n%s", text)
	}
}

func appendRaw(t *testing.T, path, line string) {
	t.Helper()
	fh, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	if _, err := fh.WriteString(line + "\n"); err != nil {
		t.Fatal(err)
	}
}
