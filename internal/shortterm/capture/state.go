// Package capture is the hot path of short-term memory: a session's
// journal of hook inputs and its state file of cursors and counters, under
// the sessions dir of the state dir. It links nothing heavier than the
// safe file layer and the transcript counter, so the small memhook-hot
// binary that runs UserPromptSubmit, Stop and PostToolUse (cmd/memhook-hot) can use it;
// package shortterm builds flushes, recovery and the inject on top.
//
//	sess := capture.Store{Root: sessionsDir}.Session(projectID, sessionID)
//	st, err := sess.Capture(now, "assistant", lastMessage, capture.Meta{Project: root, Transcript: path})
//	due := capture.Thresholds{Chars: 12000, Replies: 20}.Due(st)
//
// Layout under the sessions dir: <project-id>/<session>.json (state),
// <project-id>/<session>.cursor.json (its durable copy),
// <project-id>/<session>.jsonl (journal), <project-id>/pending/<session>.
package capture

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
)

// ErrNoSession: the session named has no state in the sessions dir.
var ErrNoSession = errors.New("no state")

// RecoverIdle is how long another session of the project must have been
// silent before SessionStart flushes its segment as a recovery: a session
// still open in another terminal is left to flush itself.
const RecoverIdle = 10 * time.Minute

// Over reports whether the session is over as far as its segment goes:
// SessionEnd was seen, or it has been silent [RecoverIdle]. A recovery
// flushes only such sessions, and only they may be judged trivial.
func (st *State) Over(now time.Time) bool {
	return st.Ended || now.Sub(st.LastSeen) >= RecoverIdle
}

// LockTimeout bounds how long a hook waits for the session lock; a flush
// holds it only for reads and one append, never while a model runs.
const LockTimeout = 3 * time.Second

// State is one session's cursors and counters.
type State struct {
	Rev        int64  `json:"rev"` // bumped by every write; see Load
	SessionID  string `json:"session_id"`
	ProjectID  string `json:"project_id"`
	Project    string `json:"project"` // project root
	Transcript string `json:"transcript,omitempty"`

	// Offset is how far the transcript has been flushed (bytes, always at
	// a line boundary); JournalOffset the same for the journal.
	Offset        int64 `json:"offset"`
	JournalOffset int64 `json:"journal_offset"`
	// JournalSize is the journal length the counters below account for: a
	// journal longer than this means a hook died between its append and
	// its state write, and the counters are rebuilt from the journal.
	JournalSize int64 `json:"journal_size"`
	// JournalBlank is how far the flushed journal lines have been blanked
	// in place; JournalGen counts the times the flushed journal was removed
	// and the cursors reset (see ForgetFlushed).
	JournalBlank int64 `json:"journal_blank,omitempty"`
	JournalGen   int64 `json:"journal_gen,omitempty"`
	// Carried are keys of journal messages written into a section before
	// the transcript had them (the transcript lags the hooks); the next
	// flush drops their transcript copies. See Combine.
	Carried []Carry `json:"carried,omitempty"`
	// Sub is how far each subagent transcript of the session (by file
	// name) has been flushed.
	Sub map[string]int64 `json:"sub,omitempty"`
	// Title is the session's title as its transcript last gave it;
	// TranscriptSession the session id its lines name (Claude Code 2.0's
	// subagent files beside the transcript are found by it).
	Title             string `json:"title,omitempty"`
	TranscriptSession string `json:"transcript_session,omitempty"`

	// Scan is how far Stop has counted the transcript; LastID the id of
	// the last assistant message it counted (a message split across two
	// scans is one reply); LagKey the key of the final message a Stop
	// counted before the transcript had it.
	Scan   int64  `json:"scan,omitempty"`
	LastID string `json:"last_id,omitempty"`
	LagKey string `json:"lag_key,omitempty"`
	// Changed: a tool call of the session wrote or edited a file or made
	// a commit; such a session is never trivial.
	Changed bool `json:"changed,omitempty"`

	Replies    int       `json:"replies"`     // replies captured in the whole session
	SegReplies int       `json:"seg_replies"` // replies since the last flush
	SegChars   int       `json:"seg_chars"`   // dialogue characters since the last flush
	SegStart   time.Time `json:"seg_start,omitzero"`
	Flushes    int       `json:"flushes"` // sections written
	LastSeen   time.Time `json:"last_seen,omitzero"`
	Ended      bool      `json:"ended,omitempty"` // SessionEnd was seen
	// Parked: the session ended trivial; its segment waits, off the
	// pending list, for the session to be resumed.
	Parked bool `json:"parked,omitempty"`
	// Background is when a detached flush was started (claude distiller);
	// hooks do not start another while it is recent.
	Background time.Time `json:"background,omitzero"`
	// Again is a flush a hook asked for while the background one ran
	// (its trigger, and whether the session was over); the background run
	// takes it up before it lets go.
	Again      string `json:"again,omitempty"`
	AgainFinal bool   `json:"again_final,omitempty"`
	// Import is set by `memhook import` on a session it replays from its
	// transcript: ImportRunning while it does, ImportDone once the
	// session's end was replayed. A session the hooks captured has none.
	Import string `json:"import,omitempty"`
	// Intent is set, durably, just before a section is appended, and
	// cleared with the cursor advance: a flusher that finds it knows a
	// previous one died in between and checks the daily file.
	Intent *Intent `json:"intent,omitempty"`
}

// Values of [State.Import].
const (
	ImportRunning = "running"
	ImportDone    = "done"
)

// Intent describes a section being written.
type Intent struct {
	File          string           `json:"file"`
	Seq           int              `json:"seq"`
	Offset        int64            `json:"offset"`
	JournalOffset int64            `json:"journal_offset"`
	Carried       []Carry          `json:"carried,omitempty"`
	Sub           map[string]int64 `json:"sub,omitempty"`
}

// Store is the sessions dir.
type Store struct{ Root string }

// Session is one session's files.
type Session struct {
	ID        string
	ProjectID string
	dir       string
}

// Session returns the handle of a session of a project.
func (s Store) Session(projectID, sessionID string) *Session {
	return &Session{ID: sessionID, ProjectID: projectID, dir: filepath.Join(s.Root, projectID)}
}

// Find locates a session by id alone (for `memhook flush --session`).
func (s Store) Find(sessionID string) (*Session, error) {
	matches, err := filepath.Glob(filepath.Join(s.Root, "*", sessionID+".json"))
	if err != nil {
		return nil, fmt.Errorf("find session %s: %w", sessionID, err)
	}
	if len(matches) == 0 {
		return nil, fmt.Errorf("find session %s: %w in %s", sessionID, ErrNoSession, s.Root)
	}
	return s.Session(filepath.Base(filepath.Dir(matches[0])), sessionID), nil
}

// Pending lists the sessions of a project with an unflushed segment.
func (s Store) Pending(projectID string) ([]*Session, error) {
	ents, err := os.ReadDir(filepath.Join(s.Root, projectID, "pending"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list pending sessions: %w", err)
	}
	var out []*Session
	for _, e := range ents {
		if !e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, s.Session(projectID, e.Name()))
		}
	}
	return out, nil
}

// Projects lists the project ids that have session state.
func (s Store) Projects() ([]string, error) {
	ents, err := os.ReadDir(s.Root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list session projects: %w", err)
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out, nil
}

// StatePath is the session's state file.
func (x *Session) StatePath() string { return filepath.Join(x.dir, x.ID+".json") }

// JournalPath is the session's journal of hook inputs.
func (x *Session) JournalPath() string { return filepath.Join(x.dir, x.ID+".jsonl") }

// Dir is the folder of the session's files, shared with its project's
// other sessions.
func (x *Session) Dir() string { return x.dir }

func (x *Session) pendingPath() string { return filepath.Join(x.dir, "pending", x.ID) }

// Load reads the state; a missing file is a fresh state (nil error).
//
// The state lives in two files: the main one, rewritten on every hook
// without fsync, and a durable copy written with fsync by every flush (see
// [Session.Save]). Each write bumps Rev, and Load takes the newer readable
// one, so a power cut that breaks or rolls back the main file never sends
// the cursors back; the counters are then rebuilt from the journal.
func (x *Session) Load() (*State, error) {
	m, merr := readState(x.StatePath())
	c, cerr := readState(x.durablePath())
	var st *State
	switch {
	case merr == nil && (cerr != nil || m.Rev >= c.Rev):
		st = m
	case cerr == nil:
		st = c
		st.JournalSize = -1 // force a recount from the journal
	case errors.Is(merr, fs.ErrNotExist) && errors.Is(cerr, fs.ErrNotExist):
		st = &State{}
	case errors.Is(cerr, fs.ErrNotExist):
		// A broken main file and no flush ever: the cursors were at zero.
		st = &State{JournalSize: -1}
	default:
		return nil, fmt.Errorf("read session state %s: %w", x.StatePath(), merr)
	}
	st.SessionID, st.ProjectID = x.ID, x.ProjectID
	return st, nil
}

// stateBytes bounds the read of a session's state: cursors and counts,
// never a file planted in its place.
const stateBytes = 4 << 20

func readState(path string) (*State, error) {
	data, err := safefs.ReadFile(path, stateBytes)
	if err != nil {
		return nil, err
	}
	return parseState(data)
}

func parseState(data []byte) (*State, error) {
	var st State
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	if st.Offset < 0 || st.JournalOffset < 0 || st.JournalSize < 0 {
		return nil, fmt.Errorf("parse: negative offset")
	}
	return &st, nil
}

// Save writes the state durably: the fsynced copy first, then the main
// file. Flushes use it, because their cursors must never go back.
func (x *Session) Save(st *State) error {
	st.Rev++
	data, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("encode session state: %w", err)
	}
	if err := atomicfile.Write(x.durablePath(), data, 0o600); err != nil {
		return fmt.Errorf("save session state: %w", err)
	}
	if err := atomicfile.ReplaceUnsynced(x.StatePath(), data, 0o600); err != nil {
		return fmt.Errorf("save session state: %w", err)
	}
	return nil
}

// SaveFast writes the main file without fsync: the hot path's counters can
// be rebuilt from the journal, and its cursors are the ones the durable
// copy already holds.
func (x *Session) SaveFast(st *State) error {
	st.Rev++
	data, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("encode session state: %w", err)
	}
	if err := atomicfile.ReplaceUnsynced(x.StatePath(), data, 0o600); err != nil {
		return fmt.Errorf("save session state: %w", err)
	}
	return nil
}

func (x *Session) durablePath() string { return filepath.Join(x.dir, x.ID+".cursor.json") }

// Update runs fn on the state under the session lock and saves the result
// durably when fn returns nil.
func (x *Session) Update(fn func(*State) error) error {
	return x.UpdateWith(fn, x.Save)
}

func (x *Session) updateFast(fn func(*State) error) error {
	return x.UpdateWith(fn, x.SaveFast)
}

func (x *Session) UpdateWith(fn func(*State) error, save func(*State) error) error {
	return atomicfile.WithLockTimeout(x.StatePath(), LockTimeout, func() error {
		st, err := x.Load()
		if err != nil {
			return err
		}
		if st.JournalSize < 0 {
			// Load asks for a recount (the main file lagged its durable
			// copy): done before anything saves, so that no caller writes
			// the request itself, which no Load would read again.
			if err := x.Reconcile(st); err != nil {
				return err
			}
		}
		if err := fn(st); err != nil {
			return err
		}
		return save(st)
	})
}

func (x *Session) SetPending(on bool) error {
	p := x.pendingPath()
	if !on {
		if err := safefs.Remove(p); err != nil {
			return fmt.Errorf("clear pending marker: %w", err)
		}
		return nil
	}
	if _, err := os.Stat(p); err == nil {
		return nil
	}
	if err := safefs.MkdirAll(filepath.Dir(p)); err != nil {
		return fmt.Errorf("create pending dir: %w", err)
	}
	f, err := safefs.OpenFile(p, os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("set pending marker: %w", err)
	}
	return f.Close()
}

// IsPending reports whether the session has a pending marker.
func (x *Session) IsPending() bool {
	_, err := os.Stat(x.pendingPath())
	return err == nil
}

// staleTmpAge is how old a temporary file must be before it counts as left
// by a killed write: a live write finishes within a hook's deadline.
const staleTmpAge = time.Hour

// CleanStale removes the temporary files that killed writes left in a
// project's session dir (".<name>.tmp-*", see atomicfile) once they are an
// hour old, at most once a day per project (a stamp file says when), so
// the cost of listing the dir is not paid on every SessionStart. It
// returns how many it removed.
//
// memoryDirs are the project's memory folders (.claude/memory_short,
// .claude/memory_long), swept the same day under the same stamp: killed
// atomic writes leave their temp files beside the notes, where Obsidian
// and `git status` show them. See [CleanStaleTemps] for how.
func (s Store) CleanStale(projectID string, now time.Time, memoryDirs ...string) (int, error) {
	dir := filepath.Join(s.Root, projectID)
	stamp := filepath.Join(dir, ".cleaned-"+now.Format(time.DateOnly))
	if _, err := os.Stat(stamp); err == nil {
		return 0, nil
	}
	n := 0
	var errs []error
	for _, m := range memoryDirs {
		k, err := CleanStaleTemps(m, now)
		n += k
		if err != nil {
			errs = append(errs, err)
		}
	}
	ents, err := safefs.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return n, errors.Join(errs...)
	}
	if err != nil {
		return n, fmt.Errorf("list session dir: %w", err)
	}
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, ".cleaned-") && name != filepath.Base(stamp) {
			safefs.Remove(filepath.Join(dir, name))
			continue
		}
		if !strings.HasPrefix(name, ".") || !strings.Contains(name, ".tmp-") {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) >= staleTmpAge {
			if safefs.Remove(filepath.Join(dir, name)) == nil {
				n++
			}
		}
	}
	if f, err := safefs.OpenFile(stamp, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644); err == nil {
		f.Close()
	}
	return n, errors.Join(errs...)
}

// Bounds of one sweep of a memory folder: it runs once a day, but a
// repository may plant a huge tree there.
const (
	sweepDepth   = 4
	sweepEntries = 20000
)

// tempName matches atomicfile's temp files: ".<name>.tmp-<digits>".
var tempName = lazyregexp.New(`^\..+\.tmp-[0-9]+$`)

// CleanStaleTemps removes, under root (a memory folder, walked
// [sweepDepth] levels deep and at most [sweepEntries] entries), the regular
// files named as atomicfile names its temp files that are at least an hour
// old. The walk is confined to root: symbolic links are neither followed
// nor removed, and a root that is missing is nothing to do.
func CleanStaleTemps(root string, now time.Time) (int, error) {
	if fi, err := os.Lstat(root); err != nil || !fi.IsDir() {
		return 0, nil // missing, or a link or file where the folder should be: not ours to sweep
	}
	d, err := safefs.OpenDir("", root, false)
	if err != nil {
		return 0, fmt.Errorf("sweep %s: %w", root, err)
	}
	defer d.Close()
	n, seen := 0, 0
	errStop := errors.New("stop")
	err = fs.WalkDir(d.FS(), ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable folder is skipped, not fatal
		}
		if seen++; seen > sweepEntries {
			return errStop
		}
		if e.IsDir() {
			if p != "." && strings.Count(p, "/") >= sweepDepth {
				return fs.SkipDir
			}
			return nil
		}
		if !e.Type().IsRegular() || !tempName.MatchString(e.Name()) {
			return nil
		}
		fi, err := d.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() || now.Sub(fi.ModTime()) < staleTmpAge {
			return nil
		}
		if d.Remove(p) == nil {
			n++
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		return n, fmt.Errorf("sweep %s: %w", root, err)
	}
	return n, nil
}
