// Package timeline reads what a run of daily sections adds up to, for
// readers that cannot show every section whole: one line per session (its
// title or first request, its outcome — commits, tests, what was not
// done — and how many of its open items are still open), whether a
// section has substance, and the open items carried forward until a later
// section closes them ([Tracker]; the rules are in same.go). The
// SessionStart inject's timeline and the weekly roll-ups both use it, so
// they agree on what is open.
//
// Everything is read from [daily.Parse]'s structure: the subsections named
// by the daily package's constants and the item forms the distillers write
// ("committed <hash> <subject>", "tests: <runner> <N passed, M failed>"),
// never from what a sentence says.
package timeline

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
)

// Section is a daily section with its day and a key that names it across
// reads (inject's SectionKey).
type Section struct {
	Date  string
	Key   string
	Entry daily.Entry
}

// substanceRunes: a section with no outcome, decision, lesson or open item
// still has substance when its distillate is this long (a long answer).
const substanceRunes = 1000

// Substance reports whether a section holds more than a trivial or
// housekeeping exchange: an outcome, something not done, a decision, a
// lesson or an open item, or a long distillate; a section a person wrote
// without subsections counts when it has text.
func Substance(e daily.Entry) bool {
	for _, h := range []string{daily.HeadDone, daily.HeadNotDone, daily.HeadDecided, daily.HeadLearned, daily.HeadOpen} {
		if len(e.Items(h)) > 0 {
			return true
		}
	}
	if len(e.Lists) == 0 {
		return strings.TrimSpace(e.Body) != ""
	}
	return utf8.RuneCountInString(e.Body) >= substanceRunes
}

// titleRunes bounds a title in a line.
const titleRunes = 120

// Title is what a line calls a section: the session's title when the
// heading names one, else its first request, else its first line.
func Title(e daily.Entry) string {
	t := sectionTitle(e)
	if t == "" {
		if asked := e.Items(daily.HeadAsked); len(asked) > 0 {
			t = asked[0]
		}
	}
	if t == "" {
		for _, l := range strings.Split(e.Body, "\n") {
			if l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "#-* ")); l != "" {
				t = l
				break
			}
		}
	}
	if t == "" {
		t = e.Heading
	}
	return Clip(t, titleRunes)
}

// Clip collapses whitespace and keeps at most n runes, cut at the last
// word that fits (in text without spaces, at n), marked "…".
func Clip(s string, n int) string {
	// Only the head can be kept: a long item is not split whole.
	if limit := 8*n + 64; len(s) > limit {
		s = strings.ToValidUTF8(s[:limit], "")
	}
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n-1]
	out := string(r)
	if i := strings.LastIndexByte(out, ' '); i > 0 && []rune(s)[n-1] != ' ' {
		out = out[:i]
	}
	return strings.TrimRight(out, " ,;:.") + "…"
}

// Session is one session's sections of one day, as a line shows them.
type Session struct {
	Date, Clock string // the day and its first section's start ("" when the heading has none)
	ID          string // the session id; "" for a section a person wrote
	Title       string
	Keys        []string // its sections' keys
	Commits     []Commit
	Shipped     []string // pushes and pull requests, as the Done items say them
	Tests       []Tests  // the last verdict of each runner, in order of first run
	NotDone     []string
	Substance   bool
	// RequestsFirst orders the detail's Asked with the requests before
	// the replies' openings: for a line that stands alone for its
	// session (a timeline's), where a few items say what else was asked.
	RequestsFirst bool
	// OlderOnly: the session's newer sections are shown whole, these
	// are its older ones, rolled up; their final messages said where the
	// work stood then, not now, and are labelled "concluded then".
	OlderOnly   bool
	entries     []daily.Entry
	notDoneKeys []string                    // the section of each NotDone item
	hide        func(key, item string) bool // items a later section made untrue
}

// DropClosed leaves out of the session's line and detail the failures
// and items that closed reports a later section closed.
func (x *Session) DropClosed(closed func(key, item string) bool) {
	var nd []string
	var keys []string
	for i, it := range x.NotDone {
		if !closed(x.notDoneKeys[i], it) {
			nd, keys = append(nd, it), append(keys, x.notDoneKeys[i])
		}
	}
	x.NotDone, x.notDoneKeys, x.hide = nd, keys, closed
}

// Detail is what a reader with room to spare adds under the line, within
// max runes as it renders: the session's other requests, what it did, did
// not do, decided and learned, its files and its final message, each
// labelled and clipped, each item on a line of its own (a label's several
// items follow it, marked [DetailItem]). Items are taken round by round
// (the first of each subsection, then the second...), so that a bounded
// detail holds a bit of each.
func (x Session) Detail(max int) []string {
	type list struct {
		label string
		items []string
	}
	var lists []list
	for _, d := range details {
		var items []string
		if d.head == daily.HeadFinal {
			// The final message is one item: its beginning and its end,
			// where the next steps are said; the newest section's.
			var items []string
			label := d.label
			last := len(x.entries) - 1
			if f := x.finalMessage(); f != "" && !x.OlderOnly {
				items, last = []string{f}, len(x.entries)-2
			} else if x.OlderOnly {
				// The newer sections are shown whole; what these older
				// parts concluded is kept under a label that dates it,
				// so that it is read as where the work stood then.
				label = "concluded then"
			}
			// The older sections' final messages, newest first: what
			// each part of a long session concluded.
			for i := last; i >= 0; i-- {
				if g := x.finalOf(i); g != "" {
					items = append(items, Gist(g, detailRunes))
				}
			}
			if len(items) > 0 {
				lists = append(lists, list{label, items})
			}
			continue
		}
		commits := 0
		for ei, e := range x.entries {
			for _, it := range e.Items(d.head) {
				if x.hide != nil && d.head == daily.HeadNotDone && x.hide(x.Keys[ei], it) {
					continue
				}
				if _, ok := ParseCommit(it); ok {
					// The line names the first commits and counts the
					// rest: those are said here, first.
					if commits++; commits > lineCommits && d.head == daily.HeadDone {
						items = slices.Insert(items, commits-lineCommits-1, Clip(it, detailRunes))
					}
					continue
				}
				if shipped(it) {
					continue
				}
				if _, ok := ParseTests(it); ok {
					continue
				}
				items = append(items, Clip(ShortPaths(it), detailRunes))
			}
		}
		switch d.head {
		case daily.HeadAsked:
			// The first request is the line's title, unless the
			// heading names one.
			if len(items) > 0 && strings.HasPrefix(items[0], strings.TrimSuffix(Title(x.entries[0]), "…")) {
				items = items[1:]
			}
			// "(asked before this part)" stands in for a request an
			// earlier section holds: its answer says what it is.
			items = slices.DeleteFunc(items, func(it string) bool { return it == AskedBefore })
			if x.RequestsFirst {
				// The requests before the replies' openings under
				// them: a short detail says what else was asked.
				sort.SliceStable(items, func(i, j int) bool {
					return !strings.HasPrefix(items[i], "answer: ") && strings.HasPrefix(items[j], "answer: ")
				})
			}
		case daily.HeadDecided, daily.HeadLearned:
			// A sentence that names nothing (no number, name, file or
			// code) tells a later reader least: after those that do.
			sort.SliceStable(items, func(i, j int) bool { return named(items[i]) > 0 && named(items[j]) == 0 })
		case daily.HeadNotDone:
			// The first is in the line's outcome.
			if len(items) > 0 {
				items = items[1:]
			}
		}
		if len(items) > 0 {
			lists = append(lists, list{d.label, items})
		}
	}
	// Chosen round by round, shown subsection by subsection, each item on
	// a line of its own. An item that does not fit ends its subsection,
	// not the detail: a shorter item of another may.
	take := make([]int, len(lists))
	full := make([]bool, len(lists))
	n := 0
	// Some subsections are chosen only with the room the others leave.
	// The failures after the one the line's outcome names: each is a
	// command that did not work, kept whole in the daily file, and what
	// was asked, decided, learned and concluded tells more per character
	// (in weeks built of either dev set's sessions, the detail's further
	// failures held no key fact). And where the session's newer sections are shown whole,
	// their files are there: the older parts' files and commands.
	late := func(label string) bool {
		return label == "not done" || (x.OlderOnly && label == "files")
	}
	for _, latePass := range []bool{false, true} {
		for round := 0; ; round++ {
			added := false
			for i, l := range lists {
				if round >= len(l.items) || full[i] || late(l.label) != latePass {
					continue
				}
				c := utf8.RuneCountInString(l.items[round]) + 7
				switch round {
				case 0:
					c += utf8.RuneCountInString(l.label) // "  - label: item"
				case 1:
					c += 6 // the first item moves under its label
				}
				if n+c > max {
					full[i] = true
					continue
				}
				take[i]++
				n += c
				added = true
			}
			if !added {
				break
			}
		}
	}
	var out []string
	for i, l := range lists {
		switch take[i] {
		case 0:
		case 1:
			out = append(out, l.label+": "+l.items[0])
		default:
			out = append(out, l.label+":")
			for _, it := range l.items[:take[i]] {
				out = append(out, DetailItem+it)
			}
		}
	}
	return out
}

// DetailItem marks a line of [Session.Detail] that is an item under the
// label before it.
const DetailItem = "\t"

// AskedBefore is the Asked item the distiller writes for replies that
// answer a request an earlier section holds.
const AskedBefore = "(asked before this part)"

// detailRunes bounds an item of a session's detail; the final message
// gets twice as much, half from its end.
const detailRunes = 160

// ShortPaths names each path of an item by its last two elements ("…/"
// before them): where a line is read, the file's name and folder say
// which file it is, and the daily file holds the whole path.
func ShortPaths(item string) string {
	if !strings.Contains(item, "/") {
		return item
	}
	var b strings.Builder
	start := -1
	flush := func(end int) {
		tok := item[start:end]
		core := strings.TrimRight(tok, ".:;!?")
		if p := asPath(core); p != "" && strings.Count(p, "/") > 1 {
			parts := strings.Split(p, "/")
			b.WriteString("…/" + strings.Join(parts[len(parts)-2:], "/") + tok[len(core):])
		} else {
			b.WriteString(tok)
		}
		start = -1
	}
	for i, r := range item {
		sep := r == ' ' || r == '`' || r == '"' || r == '\'' || r == ',' || r == '(' || r == ')' || r == '[' || r == ']'
		switch {
		case sep && start >= 0:
			flush(i)
			b.WriteRune(r)
		case sep:
			b.WriteRune(r)
		case start < 0:
			start = i
		}
	}
	if start >= 0 {
		flush(len(item))
	}
	return b.String()
}

// finalOf is section i's final message in one line, without what a later
// section closed.
func (x Session) finalOf(i int) string {
	var items []string
	for _, it := range x.entries[i].Items(daily.HeadFinal) {
		if x.hide == nil || !x.hide(x.Keys[i], it) {
			items = append(items, it)
		}
	}
	return strings.Join(strings.Fields(strings.Join(items, " ")), " ")
}

// finalMessage is the newest section's final message in one line, its
// head and its tail when it is long; a line a later section made untrue
// (an open item closed since) left out.
func (x Session) finalMessage() string {
	es := x.entries
	for i := len(es) - 1; i >= 0; i-- {
		var items []string
		for _, it := range es[i].Items(daily.HeadFinal) {
			if x.hide == nil || !x.hide(x.Keys[i], it) {
				items = append(items, it)
			}
		}
		if len(items) == 0 {
			continue
		}
		text := strings.Join(strings.Fields(strings.Join(items, " ")), " ")
		if utf8.RuneCountInString(text) <= 2*detailRunes {
			return text
		}
		r := []rune(text)
		tail := string(r[len(r)-detailRunes:])
		if j := strings.IndexByte(tail, ' '); j >= 0 && j < len(tail)/2 {
			tail = tail[j+1:]
		}
		return Clip(text, detailRunes) + " " + tail
	}
	return ""
}

// details are the subsections a line's detail draws on, in order, with
// the label each item gets. Done items that are commits or test runs are
// in the line already.
var details = []struct{ head, label string }{
	{daily.HeadAsked, "asked"}, {daily.HeadDone, "done"}, {daily.HeadNotDone, "not done"}, {daily.HeadDecided, "decided"},
	{daily.HeadLearned, "learned"}, {daily.HeadFiles, "files"}, {daily.HeadFinal, "final message"},
}

// Sessions groups a day's sections by session, in order of first
// appearance; a section without a marker is a session of its own.
func Sessions(secs []Section) []Session {
	var out []Session
	at := map[string]int{}
	for _, s := range secs {
		id := s.Entry.SessionID
		group := s.Date + "\x00" + id
		if !s.Entry.Marked || id == "" {
			id, group = "", s.Date+"\x00key\x00"+s.Key
		}
		i, ok := at[group]
		if !ok {
			i = len(out)
			at[group] = i
			out = append(out, Session{Date: s.Date, Clock: s.Entry.StartClock, ID: id, Title: Title(s.Entry)})
		}
		x := &out[i]
		x.Keys = append(x.Keys, s.Key)
		x.Substance = x.Substance || Substance(s.Entry)
		for _, d := range s.Entry.Items(daily.HeadDone) {
			if c, ok := ParseCommit(d); ok {
				x.Commits = append(x.Commits, c)
			} else if shipped(d) {
				x.Shipped = append(x.Shipped, d)
			}
		}
		for _, h := range []string{daily.HeadDone, daily.HeadNotDone} {
			for _, d := range s.Entry.Items(h) {
				if t, ok := ParseTests(d); ok {
					x.addTests(t)
				}
			}
		}
		for _, it := range s.Entry.Items(daily.HeadNotDone) {
			x.NotDone, x.notDoneKeys = append(x.NotDone, it), append(x.notDoneKeys, s.Key)
		}
		x.entries = append(x.entries, s.Entry)
	}
	return out
}

func (x *Session) addTests(t Tests) {
	for i := range x.Tests {
		if strings.EqualFold(x.Tests[i].Runner, t.Runner) {
			x.Tests[i] = t
			return
		}
	}
	x.Tests = append(x.Tests, t)
}

// pushItem reads a Done item that pushed one ref, "pushed <ref>
// (<range or new branch>) to <remote>".
var pushItem = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^pushed (\S+) \(([^()]*)\)( to \S+)?$`) })

// foldPushes says the pushes of one ref to one remote once, where the
// first came, with their count and the newest range: a session that
// pushed a branch after each commit pushed it, and its commits are in
// the line already.
func foldPushes(items []string) []string {
	type pushes struct {
		at, n  int
		newest string
	}
	by := map[string]*pushes{}
	var out []string
	for _, it := range items {
		m := pushItem().FindStringSubmatch(it)
		if m == nil {
			out = append(out, it)
			continue
		}
		key := m[1] + m[3]
		if p := by[key]; p != nil {
			p.n++
			if strings.Contains(m[2], "..") {
				p.newest = m[2]
			}
			out[p.at] = "pushed " + m[1] + " ×" + strconv.Itoa(p.n)
			if p.newest != "" {
				out[p.at] += ", newest (" + p.newest + ")"
			}
			out[p.at] += m[3]
			continue
		}
		by[key] = &pushes{at: len(out), n: 1}
		if strings.Contains(m[2], "..") {
			by[key].newest = m[2]
		}
		out = append(out, it)
	}
	return out
}

// shipped reports a Done item that pushed or opened a pull request, in
// the distillers' forms ("pushed origin main", "opened PR <url>").
func shipped(item string) bool {
	return strings.HasPrefix(item, "pushed ") || strings.HasPrefix(item, "opened PR ")
}

// NoOutcome is [Session.Outcome] of a session with none.
const NoOutcome = "no recorded outcome"

// Bounds of a line's parts.
const (
	lineCommits  = 3
	subjectRunes = 60
	notDoneRunes = 80
	testsRunes   = 100
)

// Outcome is the line's account of what the session did: its commits
// (hash and subject), the last verdict of each test runner and the first
// thing not done; "no recorded outcome" when there is none.
func (x Session) Outcome() string {
	var parts []string
	if len(x.Commits) > 0 {
		var cs []string
		for i, c := range x.Commits {
			if i == lineCommits {
				cs = append(cs, fmt.Sprintf("+%d more", len(x.Commits)-i))
				break
			}
			cs = append(cs, strings.TrimSpace(c.Hash+" "+Clip(c.Subject, subjectRunes)))
		}
		parts = append(parts, "committed "+strings.Join(cs, "; "))
	}
	for _, sh := range foldPushes(x.Shipped) {
		parts = append(parts, Clip(sh, subjectRunes+20))
	}
	for _, t := range x.Tests {
		parts = append(parts, Clip(t.String(), testsRunes))
	}
	if n := len(x.NotDone); n > 0 {
		s := "not done: " + Clip(x.NotDone[0], notDoneRunes)
		if n > 1 {
			s += fmt.Sprintf(" (+%d)", n-1)
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return NoOutcome
	}
	return strings.Join(parts, " · ")
}

// Line is the session in one line: its start, title, outcome and how
// many of its open items are still open (open, from a [Tracker]).
func (x Session) Line(open int) string {
	var b strings.Builder
	if x.Clock != "" {
		b.WriteString(x.Clock + " · ")
	}
	b.WriteString(x.Title)
	b.WriteString(" · " + x.Outcome())
	if open > 0 {
		fmt.Fprintf(&b, " · open %d", open)
	}
	return b.String()
}
