package daily

import (
	"strconv"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/text/frontmatter"
)

// The subsection headings a distillate body uses ("### Asked" ...), in
// the order they appear. The distillers write them; readers (the inject,
// its timeline, the roll-ups, the night) look lists up by them
// ([Entry.Items]), never by their words.
const (
	HeadAsked   = "Asked"
	HeadDone    = "Done"     // only what a tool result shows succeeded
	HeadNotDone = "Not done" // failed, refused or rejected and never fixed, with why
	HeadDecided = "Decided"
	HeadLearned = "Learned"
	HeadOpen    = "Open" // pending todos, unfixed failures, next steps of the final message
	HeadFiles   = "Files and commands"
	HeadBefore  = "Before compaction" // Claude Code's own summary of what came before
	HeadFinal   = "Final message"     // the segment's last assistant message
)

// Headings lists the subsections in order.
var Headings = []string{HeadAsked, HeadDone, HeadNotDone, HeadDecided, HeadLearned, HeadOpen, HeadFiles, HeadBefore, HeadFinal}

// emptyBody stands for a section whose distillate was empty.
const emptyBody = "_(no dialogue text)_"

const markerPrefix = "<!-- cerebro:segment "

// Day is a daily file read back by [Parse].
type Day struct {
	Type, Date, Project string // frontmatter fields, "" when absent
	// Title is the "# " line's text before the first section.
	Title string
	// Preamble is the exact text before the first section (frontmatter
	// and title): Preamble and each section's Raw, joined, are the file.
	Preamble string
	Sections []Entry
}

// Entry is one "## " section read back. Its [Section] holds what [Render]
// wrote: the session, trigger, transcript range and seq from the marker,
// the body, and the time range on the day's date (local time; zero when
// the file names no date or the heading no time range).
type Entry struct {
	Section
	Heading              string // the heading's text after "## "
	StartClock, EndClock string // "HH:MM" from the heading, "" when it has none
	Short                string // the session's first characters as the heading names them
	// Marked says the segment marker was found. Without it (a section a
	// person wrote by hand) SessionID, From, To and Seq are zero.
	Marked bool
	// Raw is the section's exact text, from its heading to the next one.
	Raw string
	// Lists are the body's "### " subsections with their "- " items, in
	// file order. Code fences are skipped.
	Lists []List
	// marker is the byte span of the marker line within Raw.
	markerFrom, markerTo int
}

// List is one "### " subsection of a section's body.
type List struct {
	Head  string
	Items []string // the items' text, without "- ", empty ones left out
	// Nested marks the items indented under the one before them (the
	// reply's opening the distiller writes under a request): Nested[i]
	// is item i's.
	Nested []bool
}

// Items returns the items of the subsections headed head (compared without
// case), in file order.
func (e Entry) Items(head string) []string {
	var out []string
	for _, l := range e.Lists {
		if strings.EqualFold(l.Head, head) {
			out = append(out, l.Items...)
		}
	}
	return out
}

// Text is the section as a reader shows it: Raw without the marker line
// (the heading and the distillate are what a person or a model needs).
func (e Entry) Text() string {
	if !e.Marked {
		return e.Raw
	}
	return e.Raw[:e.markerFrom] + e.Raw[e.markerTo:]
}

// Parse reads a daily file: the exact inverse of [Header] followed by
// [Render]s. A section starts at a line beginning "## " outside fenced
// code; its marker is the first non-blank line after the heading. A fence
// left open runs until a heading directly followed by a segment marker, so
// a hand edit cannot hide the sections appended after it. Lines may end in
// "\r\n". Parse never fails: what it cannot read stays in Raw and Body.
// It runs in one pass, in time and memory linear in len(data).
func Parse(data []byte) Day {
	text := string(data)
	var d Day
	bodyStart := 0
	if b, err := frontmatter.Split(data); err == nil {
		d.Type, d.Date, d.Project = headerFields(b.YAML)
		bodyStart = b.BodyStart // counted from the first byte, a byte-order mark included
	}
	starts := sectionStarts(text, bodyStart)
	end := len(text)
	if len(starts) > 0 {
		end = starts[0]
	}
	d.Preamble = text[:end]
	d.Title = title(text[bodyStart:end])
	if d.Date == "" {
		if _, err := time.Parse(time.DateOnly, d.Title); err == nil {
			d.Date = d.Title
		}
	}
	date, dateErr := time.ParseInLocation(time.DateOnly, d.Date, time.Local)
	for i, s := range starts {
		e := len(text)
		if i+1 < len(starts) {
			e = starts[i+1]
		}
		en := parseEntry(text[s:e])
		if dateErr == nil {
			en.Start, en.End = clockTimes(date, en.StartClock, en.EndClock)
		}
		d.Sections = append(d.Sections, en)
	}
	return d
}

// line is one line of s from off: its text without the line ending, and
// where the next line starts.
func line(s string, off int) (string, int) {
	i := strings.IndexByte(s[off:], '\n')
	if i < 0 {
		return strings.TrimSuffix(s[off:], "\r"), len(s)
	}
	return strings.TrimSuffix(s[off:off+i], "\r"), off + i + 1
}

// fence tracks fenced code blocks (``` or ~~~, CommonMark's rule: closed
// by a run of the same character at least as long, with nothing after).
type fence struct {
	char byte
	n    int
}

// step updates the fence state for line l and reports whether l is a
// fence line or inside a fence.
func (f *fence) step(l string) bool {
	t := strings.TrimSpace(l)
	n := 0
	for n < len(t) && (t[n] == '`' || t[n] == '~') && t[n] == t[0] {
		n++
	}
	if f.n == 0 {
		if n >= 3 {
			f.char, f.n = t[0], n
			return true
		}
		return false
	}
	if n >= f.n && t[0] == f.char && strings.TrimSpace(t[n:]) == "" {
		f.n = 0
	}
	return true
}

// sectionStarts returns the byte offsets of the section headings from
// off on.
func sectionStarts(s string, off int) []int {
	var out []int
	var f fence
	for off < len(s) {
		l, next := line(s, off)
		if strings.HasPrefix(l, "## ") {
			if f.n == 0 {
				out = append(out, off)
				off = next
				continue
			}
			if nl, _ := line(s, next); next < len(s) && strings.HasPrefix(nl, markerPrefix) {
				f.n = 0
				out = append(out, off)
				off = next
				continue
			}
		}
		f.step(l)
		off = next
	}
	return out
}

// parseEntry reads one section: raw starts with its "## " heading.
func parseEntry(raw string) Entry {
	e := Entry{Raw: raw}
	head, off := line(raw, 0)
	e.Heading = strings.TrimSpace(head[3:])
	e.StartClock, e.EndClock, e.Short, e.Trigger, e.Title = parseHeading(e.Heading)
	bodyFrom := off
	for p := off; p < len(raw); {
		l, next := line(raw, p)
		if strings.TrimSpace(l) == "" {
			p = next
			continue
		}
		if strings.HasPrefix(l, markerPrefix) {
			if id, from, to, seq := parseMarker(l); id != "" {
				e.SessionID, e.From, e.To, e.Seq, e.Marked = id, from, to, seq, true
				e.markerFrom, e.markerTo, bodyFrom = p, next, next
			}
		}
		break
	}
	e.Body = strings.TrimSpace(raw[bodyFrom:])
	if e.Body == emptyBody {
		e.Body = ""
	}
	e.Lists = lists(raw[bodyFrom:])
	return e
}

// parseHeading reads "HH:MM–HH:MM · session XXXXXXXX · trigger · title".
// The title is everything after the trigger (it may hold " · " itself);
// headings written before titles existed end at the trigger. In a heading
// without a session part (written by hand), the last part is the trigger,
// as it always was.
func parseHeading(h string) (start, end, short, trigger, title string) {
	parts := strings.Split(h, " · ")
	if a, b, ok := strings.Cut(parts[0], "–"); ok && isClock(a) && isClock(b) {
		start, end = a, b
	} else if isClock(parts[0]) {
		start = parts[0]
	}
	for i, p := range parts[1:] {
		if s, ok := strings.CutPrefix(p, "session "); ok && short == "" {
			short = s
			if rest := parts[i+2:]; len(rest) > 0 {
				trigger = rest[0]
				title = strings.Join(rest[1:], " · ")
			}
			break
		}
		trigger = p
	}
	return start, end, short, trigger, title
}

func isClock(s string) bool {
	if len(s) != 5 || s[2] != ':' {
		return false
	}
	for _, i := range []int{0, 1, 3, 4} {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s[:2] <= "23" && s[3:] <= "59"
}

// clockTimes places the heading's clock times on the file's date. The
// file is the date of the section's end, so a start later than the end
// was the day before (a session across midnight).
func clockTimes(date time.Time, start, end string) (time.Time, time.Time) {
	at := func(c string) time.Time {
		h, _ := strconv.Atoi(c[:2])
		m, _ := strconv.Atoi(c[3:])
		return time.Date(date.Year(), date.Month(), date.Day(), h, m, 0, 0, time.Local)
	}
	if start == "" || end == "" {
		return time.Time{}, time.Time{}
	}
	s, e := at(start), at(end)
	if s.After(e) {
		s = time.Date(date.Year(), date.Month(), date.Day()-1, s.Hour(), s.Minute(), 0, 0, time.Local)
	}
	return s, e
}

// parseMarker reads [Marker]'s line; keys it does not know are skipped.
func parseMarker(l string) (session string, from, to int64, seq int) {
	l = strings.TrimSpace(strings.TrimPrefix(l, markerPrefix))
	l = strings.TrimSpace(strings.TrimSuffix(l, "-->"))
	for _, f := range strings.Fields(l) {
		k, v, _ := strings.Cut(f, "=")
		switch k {
		case "session":
			session = v
		case "from":
			from, _ = strconv.ParseInt(v, 10, 64)
		case "to":
			to, _ = strconv.ParseInt(v, 10, 64)
		case "seq":
			seq, _ = strconv.Atoi(v)
		}
	}
	return session, from, to, seq
}

// lists reads a body's "### " subsections and their "- " items. Another
// heading ends a subsection; fenced code is skipped.
func lists(body string) []List {
	var out []List
	cur := -1
	var f fence
	for off := 0; off < len(body); {
		l, next := line(body, off)
		off = next
		if f.step(l) {
			continue
		}
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "### "):
			out = append(out, List{Head: strings.TrimSpace(t[4:])})
			cur = len(out) - 1
		case headingLevel(t) > 0:
			cur = -1
		case cur >= 0 && strings.HasPrefix(t, "- "):
			if item := strings.TrimSpace(t[2:]); item != "" {
				out[cur].Items = append(out[cur].Items, item)
				out[cur].Nested = append(out[cur].Nested, l != "" && (l[0] == ' ' || l[0] == '\t'))
			}
		}
	}
	return out
}

// headingLevel is the level of an ATX heading line ("## x" is 2), else 0.
func headingLevel(t string) int {
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(t) && t[n] != ' ' && t[n] != '\t') {
		return 0
	}
	return n
}

// title is the first "# " line's text.
func title(s string) string {
	for off := 0; off < len(s); {
		l, next := line(s, off)
		if strings.HasPrefix(l, "# ") {
			return strings.TrimSpace(l[2:])
		}
		off = next
	}
	return ""
}

// headerFields reads the frontmatter [Header] writes: "key: value" lines,
// a value single-quoted when yamlString quoted it.
func headerFields(yaml []byte) (typ, date, project string) {
	for off, s := 0, string(yaml); off < len(s); {
		l, next := line(s, off)
		off = next
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		v = unquote(strings.TrimSpace(v))
		switch strings.TrimSpace(k) {
		case "type":
			typ = v
		case "date":
			date = v
		case "project":
			project = v
		}
	}
	return typ, date, project
}

func unquote(v string) string {
	if len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' {
		return strings.ReplaceAll(v[1:len(v)-1], "''", "'")
	}
	if len(v) >= 2 && v[0] == '"' {
		if u, err := strconv.Unquote(v); err == nil {
			return u
		}
	}
	return v
}
