// Package daily reads and writes a project's short-term daily files,
// <project>/.claude/memory_short/daily/YYYY-MM-DD.md: YAML frontmatter
// (type, date, project), a "# date" title, then one "## " section per flush.
//
// [Append] adds a section under the file's lock, creating the file whole
// (frontmatter included) on first write, so concurrent sessions never
// interleave and a crash never leaves a file without its frontmatter.
// [Render] and [Header] write the format and [Parse] is their exact
// inverse: every reader of a daily file (inject, roll-ups, the night
// pass) goes through Parse rather than reading the Markdown itself.
// [Recent] finds the files inject reads.
package daily

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Section is one flush's entry.
type Section struct {
	Start, End time.Time // local time range of the segment
	SessionID  string
	Trigger    string // auto, pre-compact, session-end, recovery, manual
	// Title is the session's title as Claude Code wrote it (an ai-title,
	// a custom title, a summary of this session), "" when it wrote none.
	Title    string
	From, To int64  // transcript byte range
	Seq      int    // the session's section number, for exactly-once checks
	Body     string // the distillate (### subsections)
}

// Path is the daily file of day's local date in dir.
func Path(dir string, day time.Time) string {
	return filepath.Join(dir, Name(day))
}

// Marker is the comment that identifies a section's segment.
func Marker(sessionID string, from, to int64, seq int) string {
	return fmt.Sprintf("<!-- cerebro:segment session=%s from=%d to=%d seq=%d -->", sessionID, from, to, seq)
}

// Render is the section's text, starting with "## " and ending with a
// blank line. [Parse] gives s back (times to the minute, Body trimmed) as
// long as the Body has no line starting "## " outside fenced code, nor
// inside it directly followed by a segment marker: the distillers write
// "### " subsections of one-line "- " items and never a marker.
func Render(s Section) string {
	short := s.SessionID
	if len(short) > 8 {
		short = short[:8]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## %s–%s · session %s · %s", s.Start.Format("15:04"), s.End.Format("15:04"), short, s.Trigger)
	if t := CleanTitle(s.Title); t != "" {
		b.WriteString(" · " + t)
	}
	b.WriteString("\n")
	b.WriteString(Marker(s.SessionID, s.From, s.To, s.Seq))
	b.WriteString("\n\n")
	body := inertBody(strings.TrimSpace(s.Body))
	if body == "" {
		body = "_(no dialogue text)_"
	}
	b.WriteString(body)
	b.WriteString("\n\n")
	return b.String()
}

// inertBody keeps a distillate from passing for the file's structure, as
// [Parse] reads it: a model's distillate may copy dialogue that holds a
// section heading and a segment marker (a forged "## … · session X" with
// its marker once made Parse read sections no flush wrote, with their
// seq). Outside fenced code a "# " or "## " line becomes a "### " one and
// a line opening with "<!--" opens with "< !--"; inside it (kept as
// written) only a marker directly after a "## " line is broken, the one
// pair that ends a fence left open.
func inertBody(body string) string {
	if !strings.Contains(body, "<!--") && !strings.Contains(body, "# ") {
		return body
	}
	lines := strings.SplitAfter(body, "\n")
	var f fence
	for i, l := range lines {
		t := strings.TrimLeft(l, " \t")
		if f.n > 0 {
			if strings.HasPrefix(t, "<!--") && i > 0 && strings.HasPrefix(lines[i-1], "## ") {
				lines[i] = strings.Replace(l, "<!--", "< !--", 1)
			}
			f.step(l)
			continue
		}
		if f.step(l) {
			continue
		}
		switch {
		case strings.HasPrefix(t, "# "), strings.HasPrefix(t, "## "):
			lines[i] = "### " + strings.TrimLeft(strings.TrimLeft(t, "#"), " ")
		case strings.HasPrefix(t, "<!--"):
			lines[i] = strings.Replace(l, "<!--", "< !--", 1)
		}
	}
	return strings.Join(lines, "")
}

// MaxTitle bounds a title in a heading: a title names a session, it
// does not tell it.
const MaxTitle = 120

// CleanTitle is the title as a heading carries it: one line, no markup
// that could open an HTML comment (a segment marker) or pass for a
// heading, at most [MaxTitle] runes. Claude Code's titles are a model's
// words, so they are not trusted to be any of that.
func CleanTitle(t string) string {
	t = strings.Join(strings.Fields(strings.ToValidUTF8(t, "\uFFFD")), " ")
	t = strings.ReplaceAll(t, "<!--", "< !--")
	t = strings.TrimSpace(strings.TrimLeft(t, "#"))
	if r := []rune(t); len(r) > MaxTitle {
		t = strings.TrimSpace(string(r[:MaxTitle-1])) + "…"
	}
	return t
}

// Header is the start of a new daily file.
func Header(day time.Time, project string) string {
	d := day.Format(time.DateOnly)
	return fmt.Sprintf("---\ntype: daily\ndate: %s\nproject: %s\n---\n\n# %s\n\n", d, yamlString(project), d)
}

// yamlString writes s as a YAML scalar on one line: plain when it is
// safe, else double-quoted with every control character escaped (a
// project path may hold a newline, which once broke the frontmatter, or
// was written as a space: not the path).
func yamlString(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	plain := s != "" && strings.TrimSpace(s) == s && !strings.ContainsAny(s, ":#'\"{}[],&*!|>%@`\\") &&
		!strings.ContainsAny(s[:1], "-?~=") && !strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == '\uFEFF'
	})
	if plain {
		return s
	}
	// strconv's escapes (\n, \t, \x.., \u....) are YAML's too, for valid UTF-8.
	return strconv.Quote(s)
}

// Append writes s into the daily file of s.End's date in dir and returns
// its path. The file is created with its frontmatter when missing or empty.
func Append(dir, project string, s Section) (string, error) {
	path := Path(dir, s.End)
	text := Render(s)
	err := atomicfile.WithLock(LockPath(dir, s.End), func() error {
		fi, err := os.Stat(path)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && fi.Size() == 0) {
			return atomicfile.Write(path, []byte(Header(s.End, project)+text), 0o644)
		}
		if err != nil {
			return fmt.Errorf("stat daily file: %w", err)
		}
		data := []byte(text)
		if !endsWithNewline(path, fi.Size()) {
			// A hand edit left the last line open: the heading must start
			// a line of its own, or no reader would find the section.
			data = append([]byte("\n"), data...)
		}
		return atomicfile.AppendUnlocked(path, data, 0o644)
	})
	if err != nil {
		return "", fmt.Errorf("write daily section: %w", err)
	}
	return path, nil
}

// endsWithNewline reports whether the file's last byte is a newline; a
// file it cannot read counts as ending with one (the append reports the
// error).
func endsWithNewline(path string, size int64) bool {
	f, err := safefs.Open(path)
	if err != nil {
		return true
	}
	defer f.Close()
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, size-1); err != nil {
		return true
	}
	return b[0] == '\n'
}

// LockPath is where the appends to a day's file take their lock: under
// <project>/.claude/.cerebro/locks/, never beside the note, so the daily
// folder opened in Obsidian or listed by git status holds notes only. dir
// is <project>/.claude/memory_short/daily.
func LockPath(dir string, day time.Time) string {
	claude := filepath.Dir(filepath.Dir(dir))
	return filepath.Join(claude, ".cerebro", "locks", "daily-"+day.Format(time.DateOnly))
}

// HasSegment reports whether the file at path holds the section numbered
// seq of the session (used when a flusher died between writing a section
// and advancing its cursor). noteBytes bounds the read (see
// [safefs.ReadNote]).
func HasSegment(path, sessionID string, seq int, noteBytes int64) (bool, error) {
	data, err := safefs.ReadNote(path, noteBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read daily file: %w", err)
	}
	for _, e := range Parse(data).Sections {
		if e.Marked && e.SessionID == sessionID && e.Seq == seq {
			return true, nil
		}
	}
	return false, nil
}
