package lessons

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Record is what the reminders of one project did, kept for the person in
// the state dir (never in the repository): per lesson, how often it was
// shown, heeded (the next call of its form succeeded) and repeated anyway
// (it failed again), and whether its fix stopped working; per session,
// which lessons it was shown, so that each is shown once.
type Record struct {
	Dir string // <state>/lessons/<project id>
}

// Stat is one lesson's record.
type Stat struct {
	Shown     int    `json:"shown"`
	Heeded    int    `json:"heeded"`
	Repeated  int    `json:"repeated"`
	FixFailed int    `json:"fix_failed,omitempty"`
	Last      string `json:"last,omitempty"` // the day it was last shown
}

// Retired reports whether a lesson with this record is no longer shown:
// shown retireAfter times and never heeded, or its fix failed since. A
// pinned lesson is never retired.
func (s Stat) Retired(retireAfter int) bool {
	return s.FixFailed > 0 || retireAfter > 0 && s.Shown >= retireAfter && s.Heeded == 0
}

// maxStats bounds the record's file; it holds one entry per lesson.
const maxStats = 256 << 10

func (r Record) statsPath() string { return filepath.Join(r.Dir, "stats.json") }

func (r Record) sessionPath(session string) string {
	return filepath.Join(r.Dir, "sessions", session)
}

// Stats reads the record of every lesson; a missing one is empty.
func (r Record) Stats() (map[string]Stat, error) {
	out := map[string]Stat{}
	data, err := safefs.ReadFile(r.statsPath(), maxStats)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, fmt.Errorf("read the reminders' record: %w", err)
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return map[string]Stat{}, fmt.Errorf("parse the reminders' record: %w", err)
	}
	return out, nil
}

// Note changes one lesson's record under the record's lock.
func (r Record) Note(key string, change func(s *Stat)) error {
	if err := safefs.MkdirAllMode(r.Dir, 0o700); err != nil {
		return fmt.Errorf("create the reminders' record: %w", err)
	}
	return atomicfile.WithLockTimeout(r.statsPath(), time.Second, func() error {
		all, err := r.Stats()
		if err != nil {
			all = map[string]Stat{} // a broken record starts again
		}
		s := all[key]
		change(&s)
		all[key] = s
		if len(all) > 4*MaxLessons {
			dropOldest(all)
		}
		data, err := json.MarshalIndent(all, "", " ")
		if err != nil {
			return err
		}
		return atomicfile.ReplaceUnsynced(r.statsPath(), data, 0o600)
	})
}

func dropOldest(all map[string]Stat) {
	for len(all) > 4*MaxLessons {
		old := ""
		for k, s := range all {
			if old == "" || s.Last < all[old].Last {
				old = k
			}
		}
		delete(all, old)
	}
}

// Session states of a lesson.
const (
	StateShown    = "shown"    // reminded, its outcome not yet seen
	StateSettled  = "settled"  // the call after the reminder ran
	StateRepeated = "repeated" // it failed again: a reminder may be given again
)

// maxSessionBytes bounds one session's record of reminders.
const maxSessionBytes = 64 << 10

// Seen is the state of each lesson in one session: the last line of a key
// wins.
func (r Record) Seen(session string) map[string]string {
	out := map[string]string{}
	data, err := safefs.ReadFile(r.sessionPath(session), maxSessionBytes)
	if err != nil {
		return out
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if k, st, ok := strings.Cut(sc.Text(), "\t"); ok {
			out[k] = st
		}
	}
	return out
}

// Mark notes the state of a lesson in a session.
func (r Record) Mark(session, key, state string) error {
	p := r.sessionPath(session)
	if err := safefs.MkdirAllMode(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("create the session's reminders: %w", err)
	}
	if fi, err := safefs.Lstat(p); err == nil && fi.Size() > maxSessionBytes {
		return nil // a session this long has said all it will
	} else if err != nil {
		r.sweep() // a new session's file: the old sessions' go
	}
	line := strings.NewReplacer("\t", " ", "\n", " ").Replace(key) + "\t" + state + "\n"
	return atomicfile.AppendUnsynced(p, []byte(line), 0o600)
}

// triedPath holds what a session tried of the intents that failed in it:
// the lessons it learnt itself before any flush wrote them.
func (r Record) triedPath(session string) string {
	return filepath.Join(r.Dir, "sessions", session+".tried")
}

// Tried notes a call of key in a session: a failure with its command and
// error, or a success with its command (only for a key that failed).
func (r Record) Tried(session, key, command, why string, ok bool) error {
	p := r.triedPath(session)
	if err := safefs.MkdirAllMode(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("create the session's reminders: %w", err)
	}
	if fi, err := safefs.Lstat(p); err == nil && fi.Size() > maxSessionBytes {
		return nil
	} else if err != nil {
		r.sweep()
	}
	state := "failed"
	if ok {
		state = "ok"
	}
	line := oneField(key) + "\t" + state + "\t" + oneField(clean(command, 300)) + "\t" + oneField(clean(why, 200)) + "\n"
	return atomicfile.AppendUnsynced(p, []byte(line), 0o600)
}

func oneField(s string) string {
	return strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(s)
}

// SessionLessons are the fixes a session found itself: an intent that
// failed and then worked in another form. One that then worked in the
// form that failed taught nothing.
func (r Record) SessionLessons(session string, now time.Time) (File, map[string]bool) {
	var f File
	pending := map[string]bool{}
	data, err := safefs.ReadFile(r.triedPath(session), maxSessionBytes)
	if err != nil {
		return f, pending
	}
	failed := map[string][2]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		p := strings.Split(sc.Text(), "\t")
		if len(p) != 4 {
			continue
		}
		key, state, cmd, why := p[0], p[1], p[2], p[3]
		if state == "failed" {
			if _, ok := failed[key]; !ok {
				failed[key] = [2]string{cmd, why}
			}
			continue
		}
		was, ok := failed[key]
		if !ok {
			continue
		}
		delete(failed, key)
		if i := f.index(key); i >= 0 {
			f.Lessons = append(f.Lessons[:i], f.Lessons[i+1:]...)
		}
		if !sameForm(cmd, was[0]) && changesForm(was[0], cmd) {
			f.Lessons = append(f.Lessons, Lesson{Key: key, Kind: KindFix, Failed: was[0], Error: was[1], Worked: cmd,
				Date: now.Format(time.DateOnly), Source: "this session"})
		}
	}
	for k := range failed {
		pending[k] = true
	}
	return f, pending
}

// sessionDays is how long a session's reminders are kept: a session
// resumed after that starts its reminders afresh.
const sessionDays = 14

// sweep removes the session files older than sessionDays. It runs when a
// session's first file is made, so the folder holds about the sessions of
// the last two weeks; one sweep looks at 2,000 entries at most.
func (r Record) sweep() {
	dir := filepath.Join(r.Dir, "sessions")
	ents, err := safefs.ReadDir(dir)
	if err != nil {
		return
	}
	old := time.Now().AddDate(0, 0, -sessionDays)
	for i, e := range ents {
		if i >= 2000 {
			return
		}
		if !e.Type().IsRegular() {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.ModTime().Before(old) {
			safefs.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
