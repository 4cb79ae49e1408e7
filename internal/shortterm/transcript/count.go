package transcript

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/tidwall/gjson"
)

// Tally is what [Reader.Count] found in the part of a transcript it scanned: the
// assistant messages with text on the main thread, the dialogue characters
// they and their tool calls add, and whether a tool call changed the
// project.
type Tally struct {
	// Messages are the assistant messages with text, by message id, in
	// order; a message split across lines is listed once.
	Messages []CountedMessage
	// ToolChars are the characters of the one-line mentions of the tool
	// calls (see [ToolLine]).
	ToolChars int
	// Changed is set when a call wrote or edited a file or committed.
	Changed bool
}

// CountedMessage is one assistant message with text.
type CountedMessage struct {
	ID, Text string
}

// Count scans complete lines from byte offset from, at most maxBytes of
// them (0 = to EOF), each bounded by r's LineBytes, and returns what they
// add to the dialogue and the offset after the last line scanned. User
// lines are not parsed at all: the hooks count prompts themselves, and
// tool output (the bulk of a transcript, written as user lines) must cost
// no more than a type check.
func (r Reader) Count(path string, from, maxBytes int64) (Tally, int64, error) {
	var t Tally
	if from < 0 {
		return t, from, fmt.Errorf("count transcript %s: negative offset %d", path, from)
	}
	// Through the same bounded, non-blocking open as Read: the path comes
	// from hook input and may name a FIFO or /dev/zero.
	lineBytes := r.lineBytes()
	f, err := open(path, from, maxBytes, lineBytes, r.until())
	if err != nil {
		return t, from, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	var consumed int64
	seen := &counting{seen: map[string]int{}}
	for maxBytes <= 0 || consumed < maxBytes {
		chunk, rerr := br.ReadSlice('\n')
		if errors.Is(rerr, bufio.ErrBufferFull) {
			// A long line: only an assistant line is read whole; user
			// and progress lines are skipped without being held.
			if assistantLine(chunk) {
				line, n, skipped, err := readRest(br, chunk, lineBytes)
				if skipped > 0 {
					// Over the line bound: dropped unread, like [Reader.Read]
					// drops it, so the scan goes on past it.
					consumed += skipped
					continue
				}
				if err != nil {
					break // unterminated: the next scan takes it
				}
				consumed += n
				t.add(line, seen)
				continue
			}
			n := int64(len(chunk))
			skipped, complete := skipLine(br)
			if !complete && n+skipped <= lineBytes {
				break // a line still being written
			}
			consumed += n + skipped
			continue
		}
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			seen.finish(&t)
			return t, from + consumed, fmt.Errorf("count transcript %s at %d: %w", path, from+consumed, rerr)
		}
		if rerr != nil { // EOF: an unterminated tail is left for next time
			break
		}
		consumed += int64(len(chunk))
		t.add(chunk, seen)
	}
	seen.finish(&t)
	return t, from + consumed, nil
}

// readRest reads the remainder of a long line whose first chunk was read,
// shrunk as [Reader.Read] shrinks it; n is the line's length in the file.
// A line over lineBytes is skipped to its end (or to the end of what may
// be read) instead of held: skipped is then its length, line nil.
func readRest(br *bufio.Reader, first []byte, lineBytes int64) (line []byte, n, skipped int64, err error) {
	var s shrinker
	s.write(first)
	for {
		chunk, err := br.ReadSlice('\n')
		s.write(chunk)
		if errors.Is(err, bufio.ErrBufferFull) {
			if s.raw > lineBytes {
				k, _ := skipLine(br)
				return nil, 0, s.raw + k, nil
			}
			continue
		}
		return s.out, s.raw, 0, err
	}
}

// skipLine discards the rest of a line; complete is false at EOF before
// its newline (a line still being written).
func skipLine(br *bufio.Reader) (int64, bool) {
	var n int64
	for {
		chunk, err := br.ReadSlice('\n')
		n += int64(len(chunk))
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return n, err == nil
	}
}

// assistantLine tells from the start of a line whether it is an assistant
// line; Claude Code writes "type" before "message".
func assistantLine(head []byte) bool {
	return gjson.GetBytes(head, "type").Str == RoleAssistant ||
		bytes.Contains(head, []byte(`"type":"assistant"`))
}

// counting folds the lines of one message: its later texts are kept apart
// and joined once (finish), linear however many lines a message has.
type counting struct {
	seen map[string]int // message id → index in Messages
	more map[int][]string
}

func (c *counting) finish(t *Tally) {
	for i, texts := range c.more {
		t.Messages[i].Text = strings.Join(append([]string{t.Messages[i].Text}, texts...), "\n\n")
	}
	c.more = nil
}

func (t *Tally) add(line []byte, c *counting) {
	if gjson.GetBytes(line, "type").Str != RoleAssistant {
		return
	}
	it, ok := ParseLine(line)
	if !ok || it.Role != RoleAssistant {
		return
	}
	for _, tool := range it.Tools {
		t.ToolChars += len([]rune(ToolLine(tool)))
		if ChangesProject(tool) {
			t.Changed = true
		}
	}
	if strings.TrimSpace(it.Text) == "" {
		return
	}
	if i, ok := c.seen[it.ID]; ok && it.ID != "" {
		if c.more == nil {
			c.more = map[int][]string{}
		}
		c.more[i] = append(c.more[i], it.Text)
		return
	}
	c.seen[it.ID] = len(t.Messages)
	t.Messages = append(t.Messages, CountedMessage{ID: it.ID, Text: it.Text})
}

// ChangesProject reports whether a tool call changed the project: a file
// written or edited, or a commit made.
func ChangesProject(t Tool) bool {
	switch t.Name {
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
		return true
	case "Bash", "PowerShell":
		return IsCommit(t.Target)
	}
	return false
}

// IsCommit reports whether a shell command makes a git commit.
func IsCommit(cmd string) bool {
	i := strings.Index(cmd, "git ")
	for i >= 0 {
		rest := strings.Fields(cmd[i+4:])
		// Skip global options such as -C dir or -c k=v.
		for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
			if rest[0] == "-C" || rest[0] == "-c" {
				rest = rest[min(2, len(rest)):]
				continue
			}
			rest = rest[1:]
		}
		if len(rest) > 0 && (rest[0] == "commit" || rest[0] == "merge" || rest[0] == "cherry-pick" || rest[0] == "revert") {
			return true
		}
		j := strings.Index(cmd[i+4:], "git ")
		if j < 0 {
			break
		}
		i += 4 + j
	}
	return false
}
