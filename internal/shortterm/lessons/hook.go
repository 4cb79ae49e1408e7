package lessons

import (
	"errors"
	"path/filepath"
	"strings"
	"time"
)

// Env is one tool hook's view of a project's lessons.
type Env struct {
	Root, Session string
	Raw           []byte // the hook's input
	Now           time.Time
	// The person's settings: lessons.remind, lessons.enforce,
	// lessons.retire_after.
	Remind      bool
	Enforce     []string
	RetireAfter int
	Record      Record
}

// Answer is what a tool hook says: context for the model and, for an
// enforced lesson, a permission decision with its reason. The zero
// Answer says nothing.
type Answer struct {
	Context  string
	Decision string // "", "deny" or "ask"
	Reason   string
	Key      string // the lesson's key, for the log
}

// Before answers PreToolUse: the person's enforced rule first, then the
// lesson's reminder, once a session unless the failure repeated. A call
// that matches nothing reads the lessons file and nothing else.
func Before(e Env) (Answer, error) {
	c := CallOf(e.Raw)
	rules := Rules(e.Enforce)
	if !e.Remind && len(rules) == 0 {
		return Answer{}, nil
	}
	keys := c.Keys(e.Root)
	for _, r := range rules {
		keys = append(keys, r.Key) // an enforced rule's lesson is its reason
	}
	f, err := ReadFor(e.Root, keys)
	if err != nil {
		return Answer{}, err
	}
	var a Answer
	if r, ok := Enforced(rules, e.Root, c); ok {
		l, known := f.Find(r.Key)
		a = Answer{Decision: r.Decision, Reason: Reason(r, l, known), Key: r.Key}
	}
	if !e.Remind {
		return a, nil
	}
	l, ok := lessonFor(e, f, c)
	if !ok || l.Kind == KindFix && sameForm(Focus(c.Command, l.Key), l.Worked) {
		return a, nil // no lesson, or the call takes the fix's form already
	}
	if l.Kind == KindWarn && c.Command != "" && !strings.HasPrefix(l.Key, "fetch ") && !strings.HasPrefix(l.Key, "run ") && !sameData(Focus(c.Command, l.Key), l.Failed) {
		// No fix known, and this call is about other things than the one
		// that failed (another PR, another target): nothing to say.
		return a, nil
	}
	seen := e.Record.Seen(e.Session)
	if st, ok := seen[l.Key]; ok && st != StateRepeated {
		return a, nil
	}
	if !l.Pinned {
		stats, _ := e.Record.Stats() // a broken record retires nothing
		if stats[l.Key].Retired(e.RetireAfter) {
			return a, nil
		}
	}
	a.Context, a.Key = Reminder(l, false), l.Key
	errs := []error{e.Record.Mark(e.Session, l.Key, StateShown)}
	errs = append(errs, e.Record.Note(l.Key, func(s *Stat) { s.Shown++; s.Last = e.Now.Format(time.DateOnly) }))
	return a, errors.Join(errs...)
}

// After answers PostToolUse (failed false) and PostToolUseFailure (failed
// true): it notes what became of a reminder given this session (heeded
// when the call succeeded, repeated when it failed) and, when the call
// failed and memory knows a fix other than the form that just failed,
// gives the fix right then.
func After(e Env, failed bool) (Answer, error) {
	c := CallOf(e.Raw)
	f, err := ReadFor(e.Root, c.Keys(e.Root))
	if err != nil {
		return Answer{}, err
	}
	var errs []error
	errs = append(errs, e.tried(c, failed))
	l, ok := lessonFor(e, f, c)
	if !ok {
		return Answer{}, errors.Join(errs...)
	}
	seen := e.Record.Seen(e.Session)
	st, reminded := seen[l.Key]
	// Heeded: the call after the reminder succeeded, or, after the
	// failure repeated, the next one took the fix's form.
	heeded := !failed && reminded && (st == StateShown || st == StateRepeated && l.Kind == KindFix && sameForm(Focus(c.Command, l.Key), l.Worked))
	if heeded || failed && reminded && st == StateShown {
		errs = append(errs, e.Record.Note(l.Key, func(s *Stat) {
			if failed {
				s.Repeated++
			} else {
				s.Heeded++
			}
		}))
	}
	if failed && l.Kind == KindFix && sameForm(Focus(c.Command, l.Key), l.Worked) {
		// The fix itself failed: it is no lesson any more.
		errs = append(errs, e.Record.Note(l.Key, func(s *Stat) { s.FixFailed++ }))
		return Answer{}, errors.Join(errs...)
	}
	var a Answer
	if failed {
		errs = append(errs, e.Record.Mark(e.Session, l.Key, StateRepeated))
		stats, _ := e.Record.Stats()
		// Not when the reminder was given just before this very call: the
		// next call of its form gets it again (StateRepeated).
		if e.Remind && l.Kind == KindFix && st != StateShown && (l.Pinned || !stats[l.Key].Retired(e.RetireAfter)) {
			a = Answer{Context: Reminder(l, true), Key: l.Key}
		}
	} else if heeded {
		errs = append(errs, e.Record.Mark(e.Session, l.Key, StateSettled))
	}
	return a, errors.Join(errs...)
}

// lessonFor is the lesson a call meets: the project's, else one this
// session learnt itself since its last flush.
func lessonFor(e Env, f File, c Call) (Lesson, bool) {
	if l, ok := f.Match(e.Root, c); ok {
		return l, true
	}
	if c.Command == "" {
		return Lesson{}, false
	}
	own, _ := e.Record.SessionLessons(e.Session, e.Now)
	return own.Match(e.Root, c)
}

// tried notes a shell call's outcome for the session's own lessons: every
// failure of an intent worth a lesson, and a success of one that failed.
func (e Env) tried(c Call, failed bool) error {
	if c.Command == "" {
		return nil
	}
	var keys []string
	for _, k := range c.Keys(e.Root) {
		if Worth(k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	var pending map[string]bool
	if !failed {
		_, pending = e.Record.SessionLessons(e.Session, e.Now)
	}
	var errs []error
	for _, k := range keys {
		if failed || pending[k] {
			errs = append(errs, e.Record.Tried(e.Session, k, Focus(c.Command, k), firstLine(c.Error), !failed))
		}
	}
	return errors.Join(errs...)
}

// firstLine is the line of an error that says what went wrong: past
// Claude Code's "Exit code N".
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "Exit code") && !strings.HasPrefix(l, "Error: Exit code") {
			return l
		}
	}
	return ""
}

// sameForm: two shell commands are the same form, blanks aside.
func sameForm(a, b string) bool {
	return a != "" && clean(a, MaxLineBytes) == clean(b, MaxLineBytes)
}

// RecordFor is the record of the project at root, in the state dir.
func RecordFor(stateDir, projectID string) Record {
	return Record{Dir: filepath.Join(stateDir, "lessons", projectID)}
}
