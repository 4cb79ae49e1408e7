package capture

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/text/private"
)

// Entry is one journal line: a prompt (role "user") or the final assistant
// message of a turn (role "assistant"), exactly as the hook received it.
type Entry struct {
	Role string    `json:"r"`
	Text string    `json:"t"`
	Time time.Time `json:"ts"`
}

// Meta is what the hook knows about the session besides the message.
type Meta struct {
	Project    string // project root
	Transcript string
	// LineBytes is the project's limits.transcript_line_bytes, the longest
	// transcript line a Stop's count assembles (0: the default).
	LineBytes int64
	// AsOf, when set, is the moment of a finished session a replayed hook
	// fires at: its count reads the transcript as it was then.
	AsOf *transcript.AsOf
}

// Thresholds decide when a segment is due for an automatic flush.
type Thresholds struct {
	Chars, Replies int
}

// Due reports whether the state's segment reached a threshold.
func (t Thresholds) Due(st *State) bool {
	return (t.Chars > 0 && st.SegChars >= t.Chars) || (t.Replies > 0 && st.SegReplies >= t.Replies)
}

// Capture is the hot path: it appends one message to the journal and bumps
// the counters. Its cost depends only on the message, never on the
// transcript or the history. It returns the updated state.
//
// Neither write is fsynced (an fsync costs more than the whole rest of a
// hook): both survive a killed process, and after a power cut the journal
// may miss its last lines, which the transcript holds anyway, and the
// counters are rebuilt from the journal.
func (x *Session) Capture(now time.Time, role, text string, meta Meta) (*State, error) {
	// What the person marked private never reaches the journal.
	text = private.Strip(text)
	var out *State
	text = transcript.CutText(text) // as the transcript's copy is cut
	err := x.updateFast(func(st *State) error {
		if err := x.Reconcile(st); err != nil {
			return err
		}
		if role == transcript.RoleUser && transcript.SentByClaudeCode(text) {
			// An async subagent's result or a task notification: a turn
			// of the main thread, but not the person's request.
			st.LastSeen = now
			out = st
			return nil
		}
		line, err := json.Marshal(Entry{Role: role, Text: text, Time: now})
		if err != nil {
			return fmt.Errorf("encode journal entry: %w", err)
		}
		line = append(line, '\n')
		if err := atomicfile.AppendUnsynced(x.JournalPath(), line, 0o600); err != nil {
			return fmt.Errorf("append journal: %w", err)
		}
		if meta.Project != "" {
			st.Project = meta.Project
		}
		if meta.Transcript != "" {
			st.Transcript = meta.Transcript
		}
		st.JournalSize += int64(len(line))
		if role == "assistant" {
			countTurn(st, now, text, transcript.Reader{LineBytes: meta.LineBytes, AsOf: meta.AsOf})
		} else if strings.TrimSpace(text) != "" {
			Count(st, Entry{Role: role, Text: text, Time: now})
			st.Replies++
		}
		st.LastSeen = now
		st.Parked, st.Ended = false, false
		if err := x.SetPending(true); err != nil {
			return err
		}
		out = st
		return nil
	})
	return out, err
}

// Touch records the transcript path and activity without a message
// (SessionStart, SessionEnd) under the session lock.
func (x *Session) Touch(now time.Time, meta Meta, ended bool) (*State, error) {
	var out *State
	err := x.updateFast(func(st *State) error {
		if err := x.Reconcile(st); err != nil {
			return err
		}
		if meta.Project != "" {
			st.Project = meta.Project
		}
		if meta.Transcript != "" {
			if st.Rev == 0 && st.Transcript == "" {
				// First sight of a session that already has a transcript
				// (resumed from before cerebro was installed): its history
				// is not this plugin's to replay, and reading it whole
				// could outlast every hook.
				st.Offset = lineAlignedSize(meta.Transcript)
				st.Scan = st.Offset
			}
			st.Transcript = meta.Transcript
		}
		st.LastSeen = now
		st.Ended = ended
		out = st
		return nil
	})
	return out, err
}

// ScanChunk bounds how much of the transcript one Stop scans; a turn that
// appended more is counted on by the next Stop.
const ScanChunk = 16 << 20

// countTurn counts, at Stop, what the turn added to the dialogue: every
// assistant message with text on the main thread (read from the transcript,
// from where the last scan ended: only what this turn appended) plus the
// one-line mention of each tool call, and the turn's final message, which
// the transcript usually does not hold yet (it lags the hook by ~100 ms).
// That message's key is remembered so the next scan does not count it
// again when it appears.
func countTurn(st *State, now time.Time, final string, tr transcript.Reader) {
	from := max(st.Scan, st.Offset)
	var tally transcript.Tally
	if st.Transcript != "" {
		t, next, err := tr.Count(st.Transcript, from, ScanChunk)
		if err == nil {
			tally, st.Scan = t, next
		}
	}
	n, chars := 0, tally.ToolChars
	finalKey := ""
	if strings.TrimSpace(final) != "" {
		finalKey = MessageKey("assistant", final)
	}
	seenFinal := false
	for _, m := range tally.Messages {
		k := MessageKey("assistant", m.Text)
		if k == finalKey {
			seenFinal = true
		}
		switch {
		case st.LagKey != "" && k == st.LagKey:
			st.LagKey = "" // counted at the Stop that captured it
			continue
		case m.ID != "" && m.ID == st.LastID:
			// The rest of a message whose first part the previous scan
			// counted.
			chars += utf8.RuneCountInString(m.Text)
			continue
		}
		n++
		chars += utf8.RuneCountInString(m.Text)
	}
	if k := len(tally.Messages); k > 0 {
		st.LastID = tally.Messages[k-1].ID
	}
	if finalKey != "" && !seenFinal && finalKey != st.LagKey {
		n++
		chars += utf8.RuneCountInString(final)
		st.LagKey = finalKey
	}
	st.Changed = st.Changed || tally.Changed
	if n > 0 || chars > 0 {
		if st.SegReplies == 0 && st.SegStart.IsZero() {
			st.SegStart = now
		}
		st.SegReplies += n
		st.SegChars += chars
		st.Replies += n
	}
}

func Count(st *State, e Entry) {
	if st.SegReplies == 0 && st.SegStart.IsZero() {
		st.SegStart = e.Time
	}
	st.SegReplies++
	st.SegChars += utf8.RuneCountInString(e.Text)
}

// Reconcile rebuilds the segment counters from the journal when the state
// does not account for all of it (a hook was killed between the journal
// append and the state write). Only the unflushed part is read.
func (x *Session) Reconcile(st *State) error {
	fi, err := os.Stat(x.JournalPath())
	size := int64(0)
	if err == nil {
		size = fi.Size()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("stat journal: %w", err)
	}
	if size == st.JournalSize {
		return nil
	}
	if size < st.JournalOffset {
		// The journal was lost or truncated behind the cursor: start over
		// from what is there rather than read past its end.
		st.JournalOffset = 0
	}
	entries, end, err := x.ReadJournal(st.JournalOffset)
	if err != nil {
		return err
	}
	added := len(entries) - st.SegReplies
	st.SegReplies, st.SegChars, st.SegStart = 0, 0, time.Time{}
	for _, e := range entries {
		Count(st, e)
	}
	if added > 0 {
		st.Replies += added
	}
	st.JournalSize = end
	if end < size {
		// A torn last line (killed mid-append): cut it so the next append
		// starts on a line of its own.
		if err := safefs.Truncate(x.JournalPath(), end); err != nil {
			return fmt.Errorf("cut torn journal line: %w", err)
		}
	}
	return nil
}

// ReadJournal returns the complete entries from byte offset from and the
// offset after the last complete line. Lines that do not parse are skipped.
func (x *Session) ReadJournal(from int64) ([]Entry, int64, error) {
	f, err := safefs.Open(x.JournalPath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, from, nil
	}
	if err != nil {
		return nil, from, fmt.Errorf("open journal: %w", err)
	}
	defer f.Close()
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		return nil, from, fmt.Errorf("seek journal: %w", err)
	}
	entries, n, err := parseJournal(bufio.NewReader(f))
	return entries, from + n, err
}

// maxJournalLine bounds one journal line a read assembles: Capture cuts
// a message to transcript.MaxText, so a line many times that long is not
// one Capture wrote, and is skipped.
const maxJournalLine = 16 * transcript.MaxText

// parseJournal reads complete lines; it returns the bytes they span.
func parseJournal(r *bufio.Reader) ([]Entry, int64, error) {
	var out []Entry
	var n int64
	for {
		line, size, err := safefs.ReadLine(r, maxJournalLine)
		if errors.Is(err, io.EOF) {
			return out, n, nil
		}
		if err != nil {
			return out, n, fmt.Errorf("read journal: %w", err)
		}
		n += size
		var e Entry
		if line == nil || json.Unmarshal(bytes.TrimSpace(line), &e) != nil || (e.Role != "user" && e.Role != "assistant") {
			continue
		}
		e.Text = strings.ToValidUTF8(e.Text, "\uFFFD")
		out = append(out, e)
	}
}

// lineAlignedSize is the transcript's size when it ends a line, else 0 (a
// line still being written would be cut; reading from 0 is then safe).
func lineAlignedSize(path string) int64 {
	f, err := safefs.Open(path) // hook input: a FIFO must not block
	if err != nil {
		return 0
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return 0
	}
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, fi.Size()-1); err != nil || b[0] != '\n' {
		return 0
	}
	return fi.Size()
}
