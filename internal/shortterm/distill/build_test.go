package distill

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// session builds a small transcript line by line, the way Claude Code
// writes one (a prompt, assistant text, a tool call and its result on
// their own lines), then reads it back through the transcript reader: the
// distiller is tested on what it gets in use.
type session struct {
	t     *testing.T
	lines []map[string]any
	n     int
	at    time.Time
	side  bool // lines written as a sidechain (Claude Code 1.0's subagents)
}

func newSession(t *testing.T) *session {
	return &session{t: t, at: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)}
}

func (s *session) next() (string, string) {
	s.n++
	s.at = s.at.Add(time.Second)
	return fmt.Sprintf("id%d", s.n), s.at.Format(time.RFC3339Nano)
}

func (s *session) add(l map[string]any) {
	l["sessionId"] = "sess-1"
	l["cwd"] = "/p"
	if s.side {
		l["isSidechain"] = true
	}
	s.lines = append(s.lines, l)
}

// user types a prompt.
func (s *session) user(text string) *session {
	id, ts := s.next()
	s.add(map[string]any{"type": "user", "uuid": id, "timestamp": ts, "message": map[string]any{"role": "user", "content": text}})
	return s
}

// say writes an assistant message with text.
func (s *session) say(text string) *session {
	id, ts := s.next()
	s.add(map[string]any{"type": "assistant", "uuid": id, "timestamp": ts,
		"message": map[string]any{"id": "msg-" + id, "role": "assistant", "content": []any{map[string]any{"type": "text", "text": text}}}})
	return s
}

// outcome is a tool call's result as a test writes it.
type outcome struct {
	text string
	err  bool // is_error, with a string toolUseResult as Claude Code writes for failures
}

func ok(text string) outcome     { return outcome{text: text} }
func failed(text string) outcome { return outcome{text: text, err: true} }

// rejected is a user's rejection, with the reason they gave (or none).
func rejected(reason string) outcome {
	text := "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed."
	if reason != "" {
		text = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). The user provided the following reason for the rejection: " + reason
	}
	return outcome{text: text, err: true}
}

// call writes an assistant tool call and its result.
func (s *session) call(name string, input map[string]any, out outcome) *session {
	id, ts := s.next()
	s.add(map[string]any{"type": "assistant", "uuid": id, "timestamp": ts,
		"message": map[string]any{"id": "msg-" + id, "role": "assistant", "content": []any{
			map[string]any{"type": "tool_use", "id": "tu-" + id, "name": name, "input": input}}}})
	rid, rts := s.next()
	block := map[string]any{"type": "tool_result", "tool_use_id": "tu-" + id, "content": out.text}
	var tur any = map[string]any{"stdout": out.text}
	if out.err {
		block["is_error"] = true
		tur = "Error: " + out.text
	}
	s.add(map[string]any{"type": "user", "uuid": rid, "timestamp": rts, "toolUseResult": tur,
		"message": map[string]any{"role": "user", "content": []any{block}}})
	return s
}

func (s *session) bash(cmd string, out outcome) *session {
	return s.call("Bash", map[string]any{"command": cmd}, out)
}

func (s *session) write(path string, out outcome) *session {
	return s.call("Write", map[string]any{"file_path": path, "content": "x"}, out)
}

func (s *session) edit(path string, out outcome) *session {
	return s.call("Edit", map[string]any{"file_path": path, "old_string": "a", "new_string": "b"}, out)
}

// raw adds a line as is (a compaction summary, a queue line).
func (s *session) raw(l map[string]any) *session {
	s.lines = append(s.lines, l)
	return s
}

// file writes the transcript.
func (s *session) file() string {
	s.t.Helper()
	var b strings.Builder
	for _, l := range s.lines {
		data, err := json.Marshal(l)
		if err != nil {
			s.t.Fatal(err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	path := filepath.Join(s.t.TempDir(), "session.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		s.t.Fatal(err)
	}
	return path
}

// segment reads the transcript back as a flush does.
func (s *session) segment() Segment {
	s.t.Helper()
	l, _, err := transcript.ReadLog(s.file(), 0, 0)
	if err != nil {
		s.t.Fatal(err)
	}
	return Segment{Items: l.Items, Subagents: l.Side, Cwd: l.Cwd, Title: l.Title}
}

func (s *session) body() string {
	s.t.Helper()
	return Extractive(s.segment())
}
