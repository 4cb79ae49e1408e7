package lessons

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Outcome is what a segment's tool results show of one action: the
// fields of the distillate's reading (distill.Action) a lesson is made
// from, handed over as plain values so that the hooks, which read
// lessons, need not link the distiller.
type Outcome struct {
	Intent string
	// Label is the newest attempt's form, FirstFailed the first failed
	// one's; Worked is the form that succeeded when it differs.
	Label, FirstFailed, Worked string
	Done                       bool
	Failures                   int
	// Refused: the newest attempt was not let run (the user, a permission
	// rule, a hook).
	Refused            bool
	FirstError, Newest string
}

// Learn turns a segment's outcomes into lessons and merges them into f:
// a newer lesson of a key replaces an older one unless a person pinned
// it; a warning a later session fixed becomes that fix; the file keeps
// the newest MaxLessons. date and source are the daily file's. It
// reports how many lessons it added or changed.
func (f *File) Learn(outs []Outcome, date, source string) int {
	n := 0
	for _, o := range outs {
		l, ok := lessonOf(o)
		if !ok {
			if o.Done {
				n += f.fixedLater(o, date, source)
			}
			continue
		}
		l.Date, l.Source = date, source
		i := f.index(l.Key)
		switch {
		case i < 0:
			f.Lessons = append(f.Lessons, l)
		case f.Lessons[i].Pinned:
			continue
		case f.Lessons[i].Kind == KindFix && l.Kind == KindWarn && l.Failed != f.Lessons[i].Worked:
			// The fix known still stands: this failure was another form.
			continue
		default:
			f.Lessons[i] = l
		}
		n++
	}
	f.bound()
	return n
}

// fixedLater: an action that failed before and now succeeded changes
// what its lesson says. Done in the very form that failed, the failure
// was passing (a build fixed by edits, a server that came back): the
// lesson is dropped, it would only mislead. Done in another form at the
// first try, after a failure with no fix known, it teaches that form.
func (f *File) fixedLater(o Outcome, date, source string) int {
	i := f.index(o.Intent)
	if i < 0 || f.Lessons[i].Pinned || f.Lessons[i].Kind == KindRefused {
		return 0
	}
	l := f.Lessons[i]
	form := formOf(o.Label, o.Intent)
	switch {
	case form == "":
		return 0
	case sameForm(form, l.Failed):
		// The failing form works now: the failure was passing.
		f.Lessons = append(f.Lessons[:i], f.Lessons[i+1:]...)
		return 1
	case !changesForm(l.Failed, form):
		return 0 // worked with other data: says nothing of the failed call
	case l.Kind == KindWarn && o.Failures == 0:
		l.Kind, l.Worked, l.Date, l.Source = KindFix, form, date, source
		f.Lessons[i] = l
		return 1
	}
	return 0
}

// lessonOf is the lesson one outcome teaches, if any. Tests that fail,
// edits whose old text was not found, reads and subagents are the work
// itself, not a lesson about how to call a tool; they make none.
func lessonOf(o Outcome) (Lesson, bool) {
	if o.Intent == "" || !worthALesson(o.Intent) {
		return Lesson{}, false
	}
	switch {
	case o.Refused:
		if o.Newest == "" {
			return Lesson{}, false // refused without a reason: nothing to say
		}
		return Lesson{Key: o.Intent, Kind: KindRefused, Failed: formOf(o.Label, o.Intent), Error: o.Newest}, true
	case strings.HasPrefix(o.Intent, "file "):
		return Lesson{}, false
	case o.Done && o.Failures > 0 && o.Worked != "" && changesForm(formOf(o.FirstFailed, o.Intent), formOf(o.Worked, o.Intent)):
		return Lesson{Key: o.Intent, Kind: KindFix, Failed: formOf(o.FirstFailed, o.Intent), Error: o.FirstError, Worked: formOf(o.Worked, o.Intent)}, true
	case o.Done && o.Failures > 0 && o.FirstFailed != "" && !sameForm(formOf(o.FirstFailed, o.Intent), formOf(o.Label, o.Intent)):
		// Worked afterwards only with other data (another PR, a rebase
		// continued): the failed call itself is still a warning.
		return Lesson{Key: o.Intent, Kind: KindWarn, Failed: formOf(o.FirstFailed, o.Intent), Error: o.FirstError}, true
	case !o.Done && o.Failures > 0:
		// Not fixed in this segment: a warning, until a later segment
		// shows the fix (or the same form working, which drops it).
		return Lesson{Key: o.Intent, Kind: KindWarn, Failed: formOf(o.Label, o.Intent), Error: o.Newest}, true
	}
	return Lesson{}, false
}

// Worth reports whether a failure of intent is worth a lesson when it was
// not refused: not a test run, an edit, a read, a subagent or a skill.
func Worth(intent string) bool {
	return intent != "" && worthALesson(intent) && !strings.HasPrefix(intent, "file ")
}

func worthALesson(intent string) bool {
	if c := intent[0]; c >= 'A' && c <= 'Z' {
		return false // a tool's own name (Glob, WebSearch): no hook of ours sees it
	}
	// "cmd …" names a command with no intent of its own: no call matches it.
	for _, p := range []string{"test ", "read ", "agent ", "skill ", "cmd "} {
		if strings.HasPrefix(intent, p) {
			return false
		}
	}
	return true
}

// formOf is a form as a lesson keeps it: without the distillate's
// backticks, only the part of the command about the intent (Focus).
func formOf(s, key string) string { return Focus(unquote(s), key) }

// unquote takes the distillate's backticks off a form: "`git push`" is
// "git push"; "edit `x`" stays.
func unquote(s string) string {
	if len(s) >= 2 && strings.HasPrefix(s, "`") && strings.HasSuffix(s, "`") && strings.Count(s, "`") == 2 {
		return s[1 : len(s)-1]
	}
	return s
}

func (f *File) index(key string) int {
	for i, l := range f.Lessons {
		if l.Key == key {
			return i
		}
	}
	return -1
}

// bound keeps the pinned lessons and the newest others, MaxLessons in all,
// and the file within MaxFileBytes.
func (f *File) bound() {
	for len(f.Lessons) > MaxLessons || len(f.Render()) > MaxFileBytes {
		drop := -1
		for i, l := range f.Lessons {
			if !l.Pinned && (drop < 0 || l.Date < f.Lessons[drop].Date) {
				drop = i
			}
		}
		if drop < 0 {
			if len(f.Notes) == 0 {
				return
			}
			f.Notes = f.Notes[:len(f.Notes)-1]
			continue
		}
		f.Lessons = append(f.Lessons[:drop], f.Lessons[drop+1:]...)
	}
}

// Update reads the lessons file of root, lets change edit it, and writes
// it back when change reports a change, under a lock so that two flushes
// never lose each other's lessons.
func Update(root string, change func(f *File) bool) error {
	path := Path(root)
	if err := safefs.MkdirAll(filepath.Dir(path)); err != nil {
		return fmt.Errorf("create the lessons' folder: %w", err)
	}
	// The lock lives with the daily files' (.claude/.cerebro/locks/), so
	// the memory folder holds notes only.
	lock := filepath.Join(root, ".claude", ".cerebro", "locks", "lessons")
	return atomicfile.WithLock(lock, func() error {
		f, err := ReadPath(path)
		if err != nil {
			return err
		}
		if !change(&f) {
			return nil
		}
		f.bound()
		if err := atomicfile.Write(path, f.Render(), 0o644); err != nil {
			return fmt.Errorf("write the lessons: %w", err)
		}
		return nil
	})
}

// changesForm reports whether worked differs from failed in form, not
// only in the data it was given: another program or folder, another
// step before it, other flags. `gh pr view 99` failing and `gh pr view 7`
// working teaches nothing about how to call gh.
func changesForm(failed, worked string) bool {
	f, w := strings.Fields(failed), strings.Fields(worked)
	if len(f) == 0 || len(w) == 0 || f[0] != w[0] {
		return true
	}
	if strings.Count(failed, "&&")+strings.Count(failed, ";") != strings.Count(worked, "&&")+strings.Count(worked, ";") {
		return true
	}
	// The same program alone: other flags, keeping what the failed call
	// named (`git push` → `git push --set-upstream origin x`).
	df, dw := data(f), data(w)
	return flags(f) != flags(w) && len(dw) >= len(df) && slices.Equal(dw[:len(df)], df)
}

// sameData reports whether two commands name the same things: their
// words that are no flags, set no variable and redirect nothing, in order.
func sameData(a, b string) bool {
	return strings.Join(data(strings.Fields(a)), " ") == strings.Join(data(strings.Fields(b)), " ")
}

func flags(ws []string) string {
	var fs []string
	for _, w := range ws {
		if strings.HasPrefix(w, "-") {
			fs = append(fs, w)
		}
	}
	sort.Strings(fs)
	return strings.Join(fs, " ")
}

func data(ws []string) []string {
	var out []string
	for _, w := range ws {
		if !strings.HasPrefix(w, "-") && !strings.Contains(w, "=") && !strings.ContainsAny(w, "<>|") {
			out = append(out, w)
		}
	}
	return out
}
