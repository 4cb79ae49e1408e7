// Package transcripttest builds small Claude Code transcripts for tests,
// line by line the way Claude Code writes them (a prompt, assistant text,
// a tool call and its result each on a line of their own), so that the
// code under test reads what it reads in use. Start with [New], chain the
// lines, then write the file with [Session.File] or take its bytes with
// [Session.Bytes].
package transcripttest

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// Session is a transcript being built.
type Session struct {
	t     testing.TB
	lines []map[string]any
	n     int
	at    time.Time
	// Side writes the next lines as a sidechain (Claude Code 1.0's
	// subagents).
	Side bool
	// ID is the session id every line carries.
	ID string
	// Cwd is the working directory every line carries.
	Cwd string
}

// New starts a transcript of session "sess-1" in /p.
func New(t testing.TB) *Session {
	return &Session{t: t, at: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC), ID: "sess-1", Cwd: "/p"}
}

func (s *Session) next() (string, string) {
	s.n++
	s.at = s.at.Add(time.Second)
	return fmt.Sprintf("id%d", s.n), s.at.Format(time.RFC3339Nano)
}

func (s *Session) add(l map[string]any) {
	l["sessionId"] = s.ID
	l["cwd"] = s.Cwd
	if s.Side {
		l["isSidechain"] = true
	}
	s.lines = append(s.lines, l)
}

// TB is the test the transcript is built for.
func (s *Session) TB() testing.TB { return s.t }

// User types a prompt.
func (s *Session) User(text string) *Session {
	id, ts := s.next()
	s.add(map[string]any{"type": "user", "uuid": id, "timestamp": ts, "message": map[string]any{"role": "user", "content": text}})
	return s
}

// Say writes an assistant message with text.
func (s *Session) Say(text string) *Session {
	id, ts := s.next()
	s.add(map[string]any{"type": "assistant", "uuid": id, "timestamp": ts,
		"message": map[string]any{"id": "msg-" + id, "role": "assistant", "content": []any{map[string]any{"type": "text", "text": text}}}})
	return s
}

// Outcome is a tool call's result as a test writes it.
type Outcome struct {
	Text string
	Err  bool // is_error, with a string toolUseResult as Claude Code writes for failures
}

// OK is a result that reports success.
func OK(text string) Outcome { return Outcome{Text: text} }

// Failed is a result that reports an error.
func Failed(text string) Outcome { return Outcome{Text: text, Err: true} }

// Rejected is a user's rejection, with the reason they gave (or none).
func Rejected(reason string) Outcome {
	text := "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed."
	if reason != "" {
		text = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). The user provided the following reason for the rejection: " + reason
	}
	return Outcome{Text: text, Err: true}
}

// Call writes an assistant tool call and its result.
func (s *Session) Call(name string, input map[string]any, out Outcome) *Session {
	id, ts := s.next()
	s.add(map[string]any{"type": "assistant", "uuid": id, "timestamp": ts,
		"message": map[string]any{"id": "msg-" + id, "role": "assistant", "content": []any{
			map[string]any{"type": "tool_use", "id": "tu-" + id, "name": name, "input": input}}}})
	rid, rts := s.next()
	block := map[string]any{"type": "tool_result", "tool_use_id": "tu-" + id, "content": out.Text}
	var tur any = map[string]any{"stdout": out.Text}
	if out.Err {
		block["is_error"] = true
		tur = "Error: " + out.Text
	}
	s.add(map[string]any{"type": "user", "uuid": rid, "timestamp": rts, "toolUseResult": tur,
		"message": map[string]any{"role": "user", "content": []any{block}}})
	return s
}

// Bash runs a shell command.
func (s *Session) Bash(cmd string, out Outcome) *Session {
	return s.Call("Bash", map[string]any{"command": cmd}, out)
}

// Write writes a file.
func (s *Session) Write(path string, out Outcome) *Session {
	return s.Call("Write", map[string]any{"file_path": path, "content": "x"}, out)
}

// Edit edits a file.
func (s *Session) Edit(path string, out Outcome) *Session {
	return s.Call("Edit", map[string]any{"file_path": path, "old_string": "a", "new_string": "b"}, out)
}

// Raw adds a line as is (a compaction summary, a queue line).
func (s *Session) Raw(l map[string]any) *Session {
	s.lines = append(s.lines, l)
	return s
}

// Last is the newest line, for a test to change a field of it.
func (s *Session) Last() map[string]any { return s.lines[len(s.lines)-1] }

// Bytes is the transcript so far, one JSON line each.
func (s *Session) Bytes() []byte {
	s.t.Helper()
	var b []byte
	for _, l := range s.lines {
		data, err := json.Marshal(l)
		if err != nil {
			s.t.Fatal(err)
		}
		b = append(append(b, data...), '\n')
	}
	return b
}

// File writes the transcript into a temporary folder of the test and
// returns its path.
func (s *Session) File() string {
	s.t.Helper()
	path := filepath.Join(s.t.TempDir(), "session.jsonl")
	testfile.Write(s.t, path, string(s.Bytes()))
	return path
}
