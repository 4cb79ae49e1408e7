package shortterm

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/shortterm/capture"
	"github.com/cerebro-mem/cerebro/internal/shortterm/distill"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/text/private"
)

// Flush triggers, as written in section headings.
const (
	TriggerAuto       = "auto"
	TriggerPreCompact = "pre-compact"
	TriggerSessionEnd = "session-end"
	TriggerRecovery   = "recovery"
	TriggerManual     = "manual"
)

// Triggers lists every flush trigger, for checking one given by a person.
func Triggers() []string {
	return []string{TriggerAuto, TriggerPreCompact, TriggerSessionEnd, TriggerRecovery, TriggerManual}
}

// ReadChunk bounds one transcript read; a flush reads chunk after chunk.
const ReadChunk = 8 << 20

// FlushOptions say how to flush one session.
type FlushOptions struct {
	Trigger string
	Now     time.Time
	// MinReplies: a session with fewer replies in total and no section yet
	// is trivial. With Final (session end, recovery) a trivial segment is
	// dropped; otherwise it is kept for later.
	MinReplies int
	Final      bool
	// Force flushes whatever the segment's size: before compaction,
	// nothing unflushed may be left to the summary.
	Force bool
	// Distill turns the segment into a section body. It runs without the
	// session lock held, so a slow distiller never blocks the hooks.
	Distill func(ctx context.Context, seg distill.Segment) string
	// Redact, when set, is applied to the session's title before it
	// heads the section (the distiller's body is its own business).
	Redact func(string) string
	// Crash, when set, is called at named points (tests kill the process
	// there to prove that recovery is exactly-once).
	Crash func(point string)
	// Desk is the cerebro desk's root: a session there gets a distillate
	// of the operator's work ([distill.Segment.Desk]).
	Desk string
	// NoteBytes and LineBytes are the project's limits.note_bytes (its
	// daily file) and limits.transcript_line_bytes (its transcript); 0
	// takes the defaults.
	NoteBytes, LineBytes int64
	// AsOf, when set, reads the session's files as they were at that
	// moment of its past (a replayed hook, see [Hook.AsOf]).
	AsOf *transcript.AsOf
}

// FlushResult says what a flush did.
type FlushResult struct {
	File    string // daily file written, if any
	Items   int
	Seq     int    // the section's number in its session
	Replies int    // messages with text in the section's segment
	Chars   int    // their dialogue characters, tool mentions included
	Skipped string // why nothing was written, if so
	// Lessons counts the lessons the section taught (package lessons);
	// LessonsErr says why they could not be written.
	Lessons    int
	LessonsErr error
}

type snapshot struct {
	from, to, jfrom, jto int64
	carried              []capture.Carry
	items                []transcript.Item
	subItems             []transcript.Item // what subagents did
	sub                  map[string]int64  // subagent offsets after the snapshot
	cwd                  string            // where the session ran, as its lines say
	st                   capture.State
}

// FlushSession writes the session's unflushed segment as one daily section and
// advances its cursors. Two flushers of one session never write the same
// segment twice: each reads a snapshot under the session lock, and only
// the one that finds the cursors unchanged at commit time writes.
func FlushSession(ctx context.Context, x *capture.Session, o FlushOptions) (FlushResult, error) {
	crash := o.Crash
	if crash == nil {
		crash = func(string) {}
	}
	var snap *snapshot
	var res FlushResult
	// Reading needs no fsync; update switches to a durable save when the
	// cursors move (a settled intent, a dropped segment).
	durable := false
	err := x.UpdateWith(func(st *capture.State) error {
		if err := x.Reconcile(st); err != nil {
			return err
		}
		durable = st.Intent != nil
		if err := finishIntent(x, st, o.NoteBytes); err != nil {
			return err
		}
		s, err := readSegment(x, st, transcript.Reader{LineBytes: o.LineBytes, AsOf: o.AsOf})
		if err != nil {
			return err
		}
		s.st = *st
		if !st.Changed && changes(s.items) {
			st.Changed = true
		}
		if n := withText(s.items); st.Flushes == 0 && n > st.Replies {
			// The transcript is the record: a session whose hooks could
			// not count (a full state dir) is judged by what it holds.
			st.Replies = n
		}
		trivial := !o.Force && st.Flushes == 0 && st.Replies < o.MinReplies && !st.Changed
		switch {
		case len(s.items) == 0:
			res.Skipped = "nothing new"
			durable = durable || s.to != s.from || s.jto != s.jfrom
			advance(x, st, s, false)
			return nil
		case trivial && o.Final:
			// Not saved, and not dropped either: `claude -p --resume` ends
			// the session after every turn, so a session that looks trivial
			// at its end may go on. Parked, it leaves the pending list (no
			// recovery retries it), and a resumed session's next capture
			// unparks the segment, which then flushes whole.
			res.Skipped = fmt.Sprintf("trivial session (%d replies)", st.Replies)
			st.Parked = true
			return nil
		case trivial:
			res.Skipped = fmt.Sprintf("too few replies so far (%d)", st.Replies)
			return nil
		}
		snap = s
		return nil
	}, func(st *capture.State) error {
		if durable {
			return x.Save(st)
		}
		return x.SaveFast(st)
	})
	if err != nil {
		return res, err
	}
	if snap == nil {
		return res, forgetAndSync(x, crash)
	}
	crash("after-read")
	seg := distill.Segment{
		SessionID: x.ID, Project: filepath.Base(snap.st.Project), Trigger: o.Trigger, Items: snap.items, Subagents: snap.subItems,
		Start: snap.st.SegStart, End: o.Now, Dir: snap.st.Project, Cwd: snap.cwd, Title: snap.st.Title,
		Desk: o.Desk != "" && samePath(o.Desk, snap.st.Project),
	}
	for _, it := range snap.items {
		if !it.Time.IsZero() {
			if seg.Start.IsZero() || it.Time.Before(seg.Start) {
				seg.Start = it.Time
			}
		}
	}
	if seg.Start.IsZero() || seg.Start.After(seg.End) {
		seg.Start = seg.End
	}
	body := o.Distill(ctx, seg)
	if o.Redact != nil && seg.Title != "" {
		seg.Title = o.Redact(seg.Title)
	}
	crash("after-distill")
	err = x.Update(func(st *capture.State) error {
		if err := finishIntent(x, st, o.NoteBytes); err != nil {
			return err
		}
		if st.Offset != snap.from || st.JournalOffset != snap.jfrom || st.JournalGen != snap.st.JournalGen {
			res.Skipped = "flushed by another process"
			return nil
		}
		if strings.TrimSpace(body) == "" {
			// Only acknowledgements and session commands: consumed, with
			// no section to show for it.
			res.Skipped = "nothing to distil"
			advance(x, st, snap, false)
			return nil
		}
		layout := project.Layout{Root: st.Project}
		sec := daily.Section{
			Start: seg.Start.Local(), End: seg.End.Local(), SessionID: x.ID, Trigger: o.Trigger, Title: seg.Title,
			From: snap.from, To: snap.to, Seq: st.Flushes + 1, Body: body,
		}
		st.Intent = &capture.Intent{File: daily.Path(layout.DailyDir(), sec.End), Seq: sec.Seq,
			Offset: snap.to, JournalOffset: snap.jto, Carried: snap.carried, Sub: snap.sub}
		if err := x.Save(st); err != nil {
			return err
		}
		crash("after-intent")
		file, err := daily.Append(layout.DailyDir(), filepath.Base(st.Project), sec)
		if err != nil {
			return err
		}
		crash("after-append")
		res.File, res.Items, res.Seq = file, len(snap.items), sec.Seq
		for _, it := range snap.items {
			if strings.TrimSpace(it.Text) != "" {
				res.Replies++
			}
		}
		res.Chars = transcript.Chars(snap.items)
		advance(x, st, snap, true)
		return nil
	})
	if err != nil {
		return res, err
	}
	crash("after-commit")
	if res.File != "" {
		res.Lessons, res.LessonsErr = learn(snap.st.Project, seg, res.File)
	}
	return res, forgetAndSync(x, crash)
}

// forgetAndSync takes what was flushed out of the journal, then syncs the
// pending marker. A journal that cannot be cleaned is a logged problem, not
// a failed flush: the section is written and the next flush tries again.
func forgetAndSync(x *capture.Session, crash func(string)) error {
	ferr := x.ForgetFlushed(crash)
	if err := syncPending(x); err != nil {
		return err
	}
	if ferr != nil {
		return fmt.Errorf("forget the flushed journal: %w", ferr)
	}
	return nil
}

// syncPending sets or clears the pending marker from the saved state. It
// runs only after the state is saved, so a marker is never cleared for a
// segment whose cursor has not durably moved.
func syncPending(x *capture.Session) error {
	return atomicfile.WithLockTimeout(x.StatePath(), capture.LockTimeout, func() error {
		st, err := x.Load()
		if err != nil {
			return err
		}
		return x.SetPending(!st.Parked && (st.SegReplies > 0 || st.Intent != nil))
	})
}

// readSegment takes the snapshot of the unflushed segment. It notes in st
// what the transcript says of the session itself (its title, its id as
// the lines give it): true whatever becomes of the segment.
func readSegment(x *capture.Session, st *capture.State, tr transcript.Reader) (*snapshot, error) {
	s := &snapshot{from: st.Offset, to: st.Offset, jfrom: st.JournalOffset}
	entries, jto, err := x.ReadJournal(st.JournalOffset)
	if err != nil {
		return nil, err
	}
	s.jto = jto
	log, to := readTranscript(tr, st.Transcript, st.Offset)
	s.to = to
	if log.Title != "" {
		st.Title = log.Title
	}
	if st.TranscriptSession == "" {
		st.TranscriptSession = log.SessionID
	}
	s.cwd = log.Cwd
	for i := range entries {
		entries[i].Text = private.Strip(entries[i].Text) // a journal older than the capture's strip
	}
	s.items, s.carried = Combine(stripPrivate(log.Items), entries, st.Carried)
	since := st.SegStart
	if !since.IsZero() {
		since = since.Add(-time.Minute)
	}
	s.subItems, s.sub = readSubagents(tr, st.Transcript, st.TranscriptSession, st.Sub, since)
	// Claude Code 1.0 wrote its subagents into the main file.
	s.subItems = stripPrivate(append(toolsOnly(log.Side), s.subItems...))
	return s, nil
}

// stripPrivate withholds what the person marked <private> in the
// transcript's messages and tool calls, as the capture does in the
// journal: whole messages, so a span split across a message's lines is
// withheld whole.
func stripPrivate(items []transcript.Item) []transcript.Item {
	for i := range items {
		items[i].Text = private.Strip(items[i].Text)
		for j := range items[i].Tools {
			items[i].Tools[j].Target = private.Strip(items[i].Tools[j].Target)
		}
	}
	return items
}

// readTranscript reads complete lines from offset to the end in chunks,
// merging the parts of one assistant message split across chunks and
// pairing each tool call with its result. A missing or unreadable
// transcript reads as empty: the journal still holds the prompts and
// final replies.
func readTranscript(tr transcript.Reader, path string, from int64) (transcript.Log, int64) {
	var all transcript.Log
	if path == "" {
		return all, from
	}
	pos := from
	for {
		part, next, err := tr.ReadLog(path, pos, ReadChunk)
		all = all.Append(part)
		if err != nil || next <= pos {
			// EOF, an unreadable file, or a line still being written: what
			// was read so far is the segment; the rest comes next time.
			return all, max(next, pos)
		}
		pos = next
		if pos-from >= ScanMax {
			return all, pos // the rest is the next flush's
		}
	}
}

// ScanMax bounds how far one flush reads into the transcript: a line over
// the line bound is passed over window by window, and a sparse file of
// gigabytes without a line end must not cost a flush gigabytes of reading.
// 256 MiB took a PreCompact hook 1 s on an idle machine and past its 4 s
// deadline under load; a real session writes far less between two flushes,
// and what is left is the next flush's.
const ScanMax = 64 << 20

// advance moves the cursors past the snapshot and recounts what the hooks
// journaled meanwhile.
func advance(x *capture.Session, st *capture.State, s *snapshot, wrote bool) {
	st.Offset, st.JournalOffset = s.to, s.jto
	st.Carried = s.carried
	if s.sub != nil {
		st.Sub = s.sub
	}
	if wrote {
		st.Flushes++
	}
	st.Intent = nil
	st.Scan = max(st.Scan, s.to)
	st.SegReplies, st.SegChars, st.SegStart = 0, 0, time.Time{}
	if entries, _, err := x.ReadJournal(st.JournalOffset); err == nil {
		for _, e := range entries {
			capture.Count(st, e)
		}
	}
}

// finishIntent settles a section write left half done by a dead flusher:
// if the section reached the daily file the cursors move past it, else the
// intent is dropped and the segment is flushed again.
func finishIntent(x *capture.Session, st *capture.State, noteBytes int64) error {
	in := st.Intent
	if in == nil {
		return nil
	}
	ok, err := daily.HasSegment(in.File, x.ID, in.Seq, noteBytes)
	if err != nil {
		return err
	}
	if ok {
		advance(x, st, &snapshot{to: in.Offset, jto: in.JournalOffset, carried: in.Carried, sub: in.Sub}, true)
	}
	st.Intent = nil
	return nil
}

// changes reports whether a segment's tool calls changed the project.
func changes(items []transcript.Item) bool {
	for _, it := range items {
		for _, t := range it.Tools {
			if transcript.ChangesProject(t) {
				return true
			}
		}
	}
	return false
}

// withText counts the messages of a segment that carry text.
func withText(items []transcript.Item) int {
	n := 0
	for _, it := range items {
		if strings.TrimSpace(it.Text) != "" && it.Kind == "" {
			n++
		}
	}
	return n
}

// samePath compares two folders as the file system sees them.
func samePath(a, b string) bool {
	if ea, err := filepath.EvalSymlinks(a); err == nil {
		a = ea
	}
	if eb, err := filepath.EvalSymlinks(b); err == nil {
		b = eb
	}
	return filepath.Clean(a) == filepath.Clean(b)
}
