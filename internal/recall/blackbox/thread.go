package blackbox

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// A thread is one research cycle of the caller: the recalls and remembers
// a model makes while it works one question out (the seed: memory keeps
// no history of requests, but reasoning carries its history within one
// cycle). Calls naming the same thread id share a bounded history in the
// state dir: what was asked, found and remembered, which level 5's model
// calls are given. The cycle ends when it gets its answer from research
// (level 4–5, relearned into memory as knowledge) or after ThreadIdle
// without a call; its history is then deleted, and a later call with the
// same id starts a new cycle. Nothing of it is ever read after its end.

// Bounds of a thread.
const (
	ThreadIdle       = 10 * time.Minute
	MaxThreadEntries = 20
	maxThreadID      = 200
)

// ThreadState is what a call's answer says about its cycle.
type ThreadState struct {
	ID      string    `json:"id"`
	Call    int       `json:"call"`    // this call's number in the cycle
	Earlier int       `json:"earlier"` // calls of the cycle kept before this one
	Ended   bool      `json:"ended,omitempty"`
	Expires time.Time `json:"expires,omitempty"` // when an idle cycle ends
	Note    string    `json:"note"`
}

// threadEntry is one call of a cycle, as the history keeps it.
type threadEntry struct {
	Verb   string    `json:"verb"`
	Text   string    `json:"text"`
	At     time.Time `json:"at"`
	Depth  int       `json:"depth,omitempty"`
	Kind   string    `json:"kind,omitempty"`
	Answer string    `json:"answer,omitempty"`
	Cites  []string  `json:"cites,omitempty"`
}

type threadFile struct {
	ID      string        `json:"id"`
	Started time.Time     `json:"started"`
	Last    time.Time     `json:"last"`
	Calls   int           `json:"calls"`
	Entries []threadEntry `json:"entries"`
}

func threadFate(v json.RawMessage, dst *string) Fate {
	s, isStr := asString(v)
	switch {
	case !isStr || s == "":
		return bad("thread must be a non-empty string: the id of one research cycle")
	case len(s) > maxThreadID:
		return bad(fmt.Sprintf("thread is longer than %d characters", maxThreadID))
	}
	*dst = s
	return ok("") // the box fills the note in: it knows the cycle
}

func (b *Box) threadPath(id string) string {
	h := sha256.Sum256([]byte(id))
	return filepath.Join(b.ThreadsDir, hex.EncodeToString(h[:16])+".json")
}

// openThread reads a cycle's history under its lock; an idle or foreign
// file is a new cycle. Expired cycles of other ids are swept on the way.
func (b *Box) openThread(id string, now time.Time) (*threadFile, string, error) {
	path := b.threadPath(id)
	defer b.sweepThreads(now, path)
	fresh := &threadFile{ID: id, Started: now}
	data, err := safefs.ReadNote(path, safefs.DefaultNoteBytes) // cerebro's own state
	if errors.Is(err, fs.ErrNotExist) {
		return fresh, "a new cycle", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("read thread: %w", err)
	}
	var t threadFile
	if json.Unmarshal(data, &t) != nil || t.ID != id {
		return fresh, "a new cycle (the kept history could not be read)", nil
	}
	if now.Sub(t.Last) > ThreadIdle {
		// Never read again; the call's write replaces it.
		return fresh, fmt.Sprintf("a new cycle: the earlier one with this id ended after %s idle", ThreadIdle), nil
	}
	return &t, fmt.Sprintf("call %d of the cycle", t.Calls+1), nil
}

// recordThread adds a call to its cycle, or ends the cycle.
func (b *Box) recordThread(id string, e threadEntry, end bool, now time.Time) (*ThreadState, error) {
	if err := safefs.MkdirAllMode(b.ThreadsDir, 0o700); err != nil {
		return nil, fmt.Errorf("create the threads folder: %w", err)
	}
	path := b.threadPath(id)
	var st *ThreadState
	err := atomicfile.WithLock(path, func() error {
		t, how, err := b.openThread(id, now)
		if err != nil {
			return err
		}
		earlier := len(t.Entries)
		t.Calls++
		st = &ThreadState{ID: id, Call: t.Calls, Earlier: earlier}
		if end {
			st.Ended = true
			st.Note = how + "; the cycle ended with its answer from research: its history is deleted, and the next call with this id starts a new cycle"
			if err := safefs.Remove(path); err != nil {
				return fmt.Errorf("end thread: %w", err)
			}
			return nil
		}
		e.Text, e.Answer = clip(e.Text, 300), clip(e.Answer, 500)
		t.Entries = append(t.Entries, e)
		if len(t.Entries) > MaxThreadEntries {
			t.Entries = t.Entries[len(t.Entries)-MaxThreadEntries:]
		}
		t.Last = now
		data, _ := json.Marshal(t)
		st.Expires = now.Add(ThreadIdle).UTC()
		st.Note = fmt.Sprintf("%s; %d earlier call(s) kept (at most %d), given to level 5's model calls of this cycle; kept until the cycle's answer from research or %s without a call, never after", how, earlier, MaxThreadEntries, ThreadIdle)
		return atomicfile.Write(path, data, 0o600)
	})
	return st, err
}

// threadHistory is a cycle's history before this call, nil for a new one.
func (b *Box) threadHistory(id string, now time.Time) []threadEntry {
	if id == "" || b.ThreadsDir == "" {
		return nil
	}
	t, _, err := b.openThread(id, now)
	if err != nil {
		return nil
	}
	return t.Entries
}

// sweepThreads deletes the histories of idle cycles: a cycle nobody
// continues is over, and its history must not outlive it.
func (b *Box) sweepThreads(now time.Time, own string) {
	entries, err := safefs.ReadDir(b.ThreadsDir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json.lock") {
			// A lock outlives its history; long after the cycle, nobody
			// is about to take it.
			if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > 6*ThreadIdle && fi.Mode().IsRegular() {
				if _, err := os.Lstat(filepath.Join(b.ThreadsDir, strings.TrimSuffix(e.Name(), ".lock"))); errors.Is(err, fs.ErrNotExist) {
					safefs.Remove(filepath.Join(b.ThreadsDir, e.Name()))
				}
			}
			continue
		}
		if !strings.HasSuffix(e.Name(), ".json") || filepath.Join(b.ThreadsDir, e.Name()) == own {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > ThreadIdle && fi.Mode().IsRegular() {
			p := filepath.Join(b.ThreadsDir, e.Name())
			if data, err := safefs.ReadNote(p, safefs.DefaultNoteBytes); err == nil {
				var t threadFile
				if json.Unmarshal(data, &t) == nil && now.Sub(t.Last) <= ThreadIdle {
					continue // written by a clock the file system disagrees with
				}
			}
			safefs.Remove(p)
		}
	}
}

// historyText is a cycle's history for a model call.
func historyText(h []threadEntry) string {
	if len(h) == 0 {
		return ""
	}
	var s strings.Builder
	s.WriteString("\nEarlier in this research cycle (the caller's thread), oldest first:\n")
	for _, e := range h {
		switch e.Verb {
		case VerbRemember:
			fmt.Fprintf(&s, "- remembered: %s\n", e.Text)
		default:
			fmt.Fprintf(&s, "- asked: %s → %s (level %d, %s)", e.Text, orUnknown(e.Answer), e.Depth, e.Kind)
			if len(e.Cites) > 0 {
				fmt.Fprintf(&s, " [%s]", strings.Join(e.Cites, "; "))
			}
			s.WriteString("\n")
		}
	}
	return s.String()
}

// threadCall records a call in its cycle and says so in the answer and the
// thread's fate; a failure to keep the history is the fate's note, never
// the call's failure.
func (b *Box) threadCall(fates map[string]Fate, dst **ThreadState, id string, e threadEntry, end bool, now time.Time) {
	if b.ThreadsDir == "" {
		fates["thread"] = unsupported("this memory has no state dir to keep a research cycle's history in")
		return
	}
	st, err := b.recordThread(id, e, end, now)
	if err != nil {
		fates["thread"] = Fate{Fate: FateAccepted, Note: "the cycle's history could not be kept: " + err.Error()}
		return
	}
	*dst = st
	fates["thread"] = ok(st.Note)
}

// answerText is an answer in a line, for the cycle's history.
func answerText(a *RecallAnswer) string {
	switch v := a.Answer.(type) {
	case nil:
		return ""
	case string:
		return v
	case map[string]string:
		return v["summary"]
	}
	var parts []string
	for _, it := range a.Items {
		if it.Text != "" {
			parts = append(parts, it.Text)
		}
		if len(parts) == 3 {
			break
		}
	}
	return strings.Join(parts, "; ")
}
