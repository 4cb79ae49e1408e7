package importer

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/hook"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// Step is one hook event of a session, as its transcript tells it.
type Step struct {
	// Event is the hook's: hook.SessionStart, hook.UserPromptSubmit,
	// hook.Stop, hook.PreCompact or hook.SessionEnd.
	Event string
	// Text is the prompt of a UserPromptSubmit and the last assistant
	// message of a Stop ("" for a turn that ended without text).
	Text string
	// At is when it fired, on the transcript's clock.
	At time.Time
	// Offset is how many bytes of the transcript were written when it
	// fired.
	Offset int64
}

// Fields are the step's own fields of its hook's input, as key, value
// pairs, as Claude Code sends them.
func (s Step) Fields() []string {
	switch s.Event {
	case hook.SessionStart:
		return []string{"source", "startup"}
	case hook.UserPromptSubmit:
		return []string{"prompt", s.Text}
	case hook.Stop:
		return []string{"last_assistant_message", s.Text}
	case hook.PreCompact:
		return []string{"trigger", "auto"}
	case hook.SessionEnd:
		return []string{"reason", "other"}
	}
	return nil
}

// Walker reads a transcript and yields, one [Step] at a time, the hook
// events Claude Code fired while it wrote it: SessionStart first; per
// prompt a UserPromptSubmit before its line; a PreCompact before each line
// that starts a compacted context; a Stop before the last assistant line
// with text of each turn (Claude Code fires Stop before that line reaches
// the file) or, for a turn without text, before the next prompt or the
// end; SessionEnd at the end. This is the order bench/internal/hookreplay
// fires the real hooks in, so an import and a live replay of one
// transcript see the same events.
//
// The clock is the transcript's own: an event that fires before a stamped
// line fires at its stamp, a Stop without text and the end at the newest
// stamp before them, and the clock never goes back. A line over the line
// bound is passed over unread, as the transcript readers pass it; an
// unterminated last line counts only when it is whole JSON, as for them.
// Memory is one line at most: a turn's last text is known only at the next
// prompt, so what follows it is remembered by offset, never held.
//
//	w := importer.NewWalker(f, 0)
//	for {
//		st, ok, err := w.Next()
//		if err != nil || !ok { break }
//		... // run st.Event at st.At with the transcript st.Offset bytes long
//	}
type Walker struct {
	br        *bufio.Reader
	lineBytes int64
	pos       int64 // bytes read
	long      []byte
	ready     []Step
	// last is the newest assistant line with text of the current turn,
	// its Stop not yet known to fire; held are the PreCompacts of the
	// lines after it, which fire after that Stop if it does.
	last          *Step
	held          []Step
	open, stopped bool
	clock         time.Time
	started, done bool
	err           error
}

// NewWalker walks the transcript r, passing over lines longer than
// lineBytes (0: [transcript.DefaultLineBytes]).
func NewWalker(r io.Reader, lineBytes int64) *Walker {
	if lineBytes <= 0 {
		lineBytes = transcript.DefaultLineBytes
	}
	return &Walker{br: bufio.NewReaderSize(r, 64<<10), lineBytes: lineBytes, stopped: true}
}

// Steps walks the transcript r and calls fn for each step; fn's error
// stops the walk and is returned.
func Steps(r io.Reader, lineBytes int64, fn func(Step) error) error {
	w := NewWalker(r, lineBytes)
	for {
		st, ok, err := w.Next()
		if err != nil || !ok {
			return err
		}
		if err := fn(st); err != nil {
			return err
		}
	}
}

// Next returns the next step; false once SessionEnd was returned. A read
// error ends the walk with it (the steps before it were returned).
func (w *Walker) Next() (Step, bool, error) {
	for len(w.ready) == 0 {
		if w.done || w.err != nil {
			return Step{}, false, w.err
		}
		w.read()
	}
	st := w.ready[0]
	w.ready = w.ready[1:]
	return st, true, nil
}

// read takes the next line, or the end, and queues the steps it makes
// ready.
func (w *Walker) read() {
	chunk, err := w.br.ReadSlice('\n')
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		if n := int64(len(w.long) + len(chunk)); n > w.lineBytes {
			w.skipLong(n)
			return
		}
		w.long = append(w.long, chunk...)
		return
	case err == nil:
		line := chunk
		if w.long != nil {
			line = append(w.long, chunk...)
		}
		w.line(line)
		w.long = nil
	case errors.Is(err, io.EOF):
		tail := chunk
		if w.long != nil {
			tail = append(w.long, chunk...)
		}
		w.long = nil
		if len(tail) > 0 && transcript.CompleteTail(tail) {
			w.line(tail)
		}
		w.end()
	default:
		w.err = fmt.Errorf("read transcript at byte %d: %w", w.pos, err)
	}
}

// skipLong passes over the rest of a line over the bound; n bytes of it
// were read already.
func (w *Walker) skipLong(n int64) {
	w.long = nil
	for {
		chunk, err := w.br.ReadSlice('\n')
		n += int64(len(chunk))
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err == nil {
			w.pos += n // passed over, like the readers pass it
			return
		}
		if !errors.Is(err, io.EOF) {
			w.err = fmt.Errorf("read transcript at byte %d: %w", w.pos, err)
			return
		}
		w.end() // an unterminated giant tail is never a line
		return
	}
}

// line handles one complete line starting at w.pos.
func (w *Walker) line(raw []byte) {
	at := w.pos
	w.pos += int64(len(raw))
	it, ok := transcript.ParseLine(raw)
	stamp, stamped := transcript.LineTime(raw)
	if !stamped {
		stamp = w.clock
	} else if stamp.Before(w.clock) {
		stamp = w.clock
	}
	if !w.started && stamped {
		w.start(stamp)
	}
	prompt := ok && it.Role == transcript.RoleUser && it.Kind == ""
	if prompt {
		w.start(stamp)
		w.settle(true)
		if w.open && !w.stopped {
			w.emit(Step{Event: hook.Stop, At: w.clock, Offset: at})
		}
		w.emit(Step{Event: hook.UserPromptSubmit, Text: wire(it.Text), At: stamp, Offset: at})
		w.open, w.stopped = true, false
	}
	if compaction(raw) {
		w.start(stamp)
		st := Step{Event: hook.PreCompact, At: stamp, Offset: at}
		if w.last != nil {
			w.held = append(w.held, st)
		} else {
			w.emit(st)
		}
	}
	if ok && it.Role == transcript.RoleAssistant && it.Text != "" {
		w.settle(false)
		w.last = &Step{Event: hook.Stop, Text: wire(it.Text), At: stamp, Offset: at}
	}
	w.clock = stamp
}

// settle decides the held turn's last text: final (a prompt or the end
// came) fires its Stop, when a turn is open, before what came after it.
func (w *Walker) settle(final bool) {
	if w.last != nil && final && w.open {
		w.emit(*w.last)
		w.stopped = true
	}
	for _, st := range w.held {
		w.emit(st)
	}
	w.last, w.held = nil, nil
}

func (w *Walker) start(at time.Time) {
	if !w.started {
		w.started = true
		w.ready = append(w.ready, Step{Event: hook.SessionStart, At: at})
	}
}

func (w *Walker) emit(st Step) { w.ready = append(w.ready, st) }

func (w *Walker) end() {
	w.start(w.clock)
	w.settle(true)
	if w.open && !w.stopped {
		w.emit(Step{Event: hook.Stop, At: w.clock, Offset: w.pos})
	}
	w.emit(Step{Event: hook.SessionEnd, At: w.clock, Offset: w.pos})
	w.done = true
}

// compaction tells a line that starts a compacted context: Claude Code
// ran PreCompact just before writing it.
func compaction(raw []byte) bool {
	return bytes.Contains(raw, []byte(`"compact_boundary"`)) || bytes.Contains(raw, []byte(`"isCompactSummary":true`))
}

// wire is a text as a hook receives it: through JSON, which replaces
// invalid UTF-8.
func wire(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }
