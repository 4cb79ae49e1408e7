// Package lessons keeps what a project's sessions learnt about their tool
// calls — a command that failed and the later form of it that worked, a
// failure never fixed, a call refused and why — as one Markdown line per
// lesson in .claude/memory_short/lessons.md, and gives the lesson back as
// a one-line reminder just before a call of the same form runs (the
// PreToolUse hook) or right after it failed again (PostToolUseFailure).
//
// The Markdown file is the truth: a person reads it, edits a line, deletes
// one or pins it ("pinned" after the dash). It is written at flush, off
// the hooks' clock ([Learn], from the distillate's reading of the tool
// results), and read by the hooks with a bounded read: at most
// [MaxFileBytes] and [MaxLessons] lessons, so a reminder costs the same
// whatever the size of the memory. A line is matched to a call by its key,
// the call's intent (package intent): the same program and subcommand,
// the same script from any folder, the same file.
//
// The file comes with the repository, so nothing in it decides a
// permission: a lesson is enforced ("deny" or "ask") only when the
// person's own settings name it (lessons.enforce, user layers only), and
// a reminder is recalled memory, fenced and attributed, never an
// instruction. What the reminders did (shown, heeded, repeated anyway) is
// kept per person in the state dir ([Record]); a lesson never heeded, or
// whose fix failed, is retired there.
package lessons

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Kinds of lesson.
const (
	// KindFix: a call failed and a later form of the same intent worked.
	KindFix = "fix"
	// KindWarn: a call failed and nothing fixed it in that session.
	KindWarn = "warn"
	// KindRefused: the user, a permission rule or a hook did not let it run.
	KindRefused = "refused"
)

// Bounds of what the hooks read: the file's first MaxFileBytes, lines of
// at most MaxLineBytes, the first MaxLessons lessons. Learn keeps the file
// within them.
const (
	MaxFileBytes = 64 << 10
	MaxLineBytes = 1 << 10
	MaxLessons   = 200
)

// FileName is the lessons file, in the project's short-term memory folder.
const FileName = "lessons.md"

// Path is the lessons file of the project at root.
func Path(root string) string {
	return filepath.Join(project.Layout{Root: root}.ShortDir(), FileName)
}

// Lesson is one line of the file.
type Lesson struct {
	Key    string `json:"key"` // the intent it is about: "run build.js", "git push", "file src/x.go"
	Kind   string `json:"kind"`
	Failed string `json:"failed"`           // the form that failed, as it was called
	Error  string `json:"error,omitempty"`  // what the tool said, cut
	Worked string `json:"worked,omitempty"` // the form that worked (KindFix)
	Date   string `json:"date"`             // YYYY-MM-DD of the daily file it was learnt in
	Source string `json:"source"`           // that daily file, relative to the project root
	Pinned bool   `json:"pinned"`           // a person pinned it: never retired, never replaced
}

// header is the file's preface; a person may keep or drop it.
const header = `# Lessons

What this project's sessions learnt about their tool calls, one lesson a
line, written by cerebro at flush and given back as a one-line reminder
before a call of the same form. Edit or delete a line freely; write
"pinned" after the dash to keep a lesson from being replaced or retired.
Nothing here can allow or deny a call: that is the person's own setting
lessons.enforce (see docs/lessons.md).

`

// line is one lesson:
//
//   - [fix] `run build.js` — `node assets/build.js` failed (Cannot find module) → worked: `cd assets && node build.js` (2026-12-01, .claude/memory_short/daily/2026-12-01.md)
var line = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("^- (pinned )?\\[(fix|warn|refused)\\] `([^`]{1,200})` — (.*) \\(([0-9]{4}-[0-9]{2}-[0-9]{2}), ([^()\\s]{1,300})\\)\\s*$")
})

var textParts = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("^`([^`]*)` ([a-z, ]+?)(?: \\((.*)\\))?(?: → worked: `([^`]*)`)?$")
})

// Render is the line of l.
func (l Lesson) Render() string {
	var b strings.Builder
	b.WriteString("- ")
	if l.Pinned {
		b.WriteString("pinned ")
	}
	b.WriteString("[" + l.Kind + "] `" + clean(l.Key, 200) + "` — ")
	b.WriteString(l.Text())
	b.WriteString(" (" + l.Date + ", " + strings.Join(strings.Fields(l.Source), "") + ")")
	return b.String()
}

// Text is what the lesson says, without its key, date and source.
func (l Lesson) Text() string {
	s := "`" + clean(l.Failed, 160) + "` " + verb(l.Kind)
	if e := clean(l.Error, 160); e != "" {
		s += " (" + strings.NewReplacer("(", "[", ")", "]").Replace(e) + ")"
	}
	if l.Kind == KindFix && l.Worked != "" {
		s += " → worked: `" + clean(l.Worked, 160) + "`"
	}
	return s
}

func verb(kind string) string {
	switch kind {
	case KindRefused:
		return "was refused"
	case KindFix:
		return "failed"
	}
	return "failed, no fix known"
}

// clean makes s one line without backticks, cut to n bytes on a rune
// boundary: a lesson's fields are single-line and quoted in backticks.
func clean(s string, n int) string {
	s = strings.Join(strings.Fields(strings.ReplaceAll(s, "`", "'")), " ")
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// ParseLine reads one line of the file; ok is false for a line that is
// no lesson (the preface, a note the person added, a broken line).
func ParseLine(s string) (Lesson, bool) {
	if len(s) > MaxLineBytes || !strings.HasPrefix(s, "- ") {
		return Lesson{}, false
	}
	m := line().FindStringSubmatch(s)
	if m == nil {
		return Lesson{}, false
	}
	l := Lesson{Pinned: m[1] != "", Kind: m[2], Key: m[3], Date: m[5], Source: m[6]}
	t := textParts().FindStringSubmatch(m[4])
	if t == nil {
		// Edited past the grammar: still a lesson, said in the person's words.
		l.Failed = m[4]
		return l, true
	}
	l.Failed, l.Error, l.Worked = t[1], t[3], t[4]
	return l, true
}

// File is the lessons file as read: its lessons, and the lines that are
// not lessons (kept as they are when it is written again).
type File struct {
	Lessons []Lesson
	// Notes are the other lines after the preface, in order.
	Notes []string
	// Cut: the file went on past what was read.
	Cut bool
}

// Read reads the lessons file of root within the bounds; a missing file
// is an empty one.
func Read(root string) (File, error) {
	return ReadPath(Path(root))
}

// ReadPath is Read of a file by its path.
func ReadPath(path string) (File, error) {
	f, err := safefs.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return File{}, nil
		}
		return File{}, fmt.Errorf("open the lessons: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return File{}, fmt.Errorf("read the lessons: %w", err)
	}
	return Parse(data), nil
}

// Parse reads the lessons of a file's bytes, within the bounds.
func Parse(data []byte) File {
	var out File
	if len(data) > MaxFileBytes {
		data, out.Cut = data[:MaxFileBytes], true
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), MaxFileBytes+1)
	inPreface := true
	for sc.Scan() {
		s := sc.Text()
		if l, ok := ParseLine(s); ok {
			inPreface = false
			if len(out.Lessons) < MaxLessons {
				out.Lessons = append(out.Lessons, l)
			} else {
				out.Cut = true
			}
			continue
		}
		if inPreface {
			continue
		}
		if strings.TrimSpace(s) != "" && len(s) <= MaxLineBytes && len(out.Notes) < MaxLessons {
			out.Notes = append(out.Notes, s)
		}
	}
	return out
}

// Render is the whole file: the preface, the lessons newest first (pinned
// ones first of all), then the person's own lines.
func (f File) Render() []byte {
	ls := append([]Lesson(nil), f.Lessons...)
	sort.SliceStable(ls, func(i, j int) bool {
		if ls[i].Pinned != ls[j].Pinned {
			return ls[i].Pinned
		}
		return ls[i].Date > ls[j].Date
	})
	var b strings.Builder
	b.WriteString(header)
	for _, l := range ls {
		b.WriteString(l.Render() + "\n")
	}
	notes := f.Notes
	for len(notes) > 0 && strings.TrimSpace(notes[0]) == "" {
		notes = notes[1:]
	}
	if len(notes) > 0 {
		b.WriteString("\n")
		for _, n := range notes {
			b.WriteString(n + "\n")
		}
	}
	return []byte(b.String())
}

// Find is the lesson of key, if the file has one.
func (f File) Find(key string) (Lesson, bool) {
	for _, l := range f.Lessons {
		if l.Key == key {
			return l, true
		}
	}
	return Lesson{}, false
}

// keyOf is a lesson line's key, read without the grammar: the hooks look
// at every line, and parse only the lines of the keys a call has.
func keyOf(s string) (string, bool) {
	s, ok := strings.CutPrefix(s, "- ")
	if !ok {
		return "", false
	}
	s = strings.TrimPrefix(s, "pinned ")
	if !strings.HasPrefix(s, "[") {
		return "", false
	}
	_, rest, ok := strings.Cut(s, "] `")
	if !ok {
		return "", false
	}
	key, _, ok := strings.Cut(rest, "`")
	return key, ok
}

// ReadFor reads, within the bounds, only the lessons of the given keys:
// what a hook needs of the file, at the cost of a scan of its lines.
func ReadFor(root string, keys []string) (File, error) {
	if len(keys) == 0 {
		return File{}, nil
	}
	f, err := safefs.Open(Path(root))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return File{}, nil
		}
		return File{}, fmt.Errorf("open the lessons: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes))
	if err != nil {
		return File{}, fmt.Errorf("read the lessons: %w", err)
	}
	var out File
	n := 0
	for len(data) > 0 && n < MaxLessons {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(line) > MaxLineBytes {
			continue
		}
		k, ok := keyOf(string(line))
		if !ok {
			continue
		}
		n++
		for _, want := range keys {
			if k == want {
				if l, ok := ParseLine(string(line)); ok {
					out.Lessons = append(out.Lessons, l)
				}
				break
			}
		}
	}
	return out, nil
}
