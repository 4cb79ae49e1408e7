// Package distill turns a segment of a session into the distillate that a
// flush writes into the daily file: the body of one "## " section, made of
// "### " subsections (Asked, Done, Not done, Decided, Learned, Open, Files
// and commands, Before compaction, Final message; [daily.Headings]), each a
// bullet list present only when non-empty.
//
// Done and Not done come only from the tool results the segment's calls
// got (each call paired with its result by the transcript reader); Open
// from state; Asked, Before compaction and Final message are the
// session's own words. [Extractive] is the default: deterministic, no
// model. [Claude.Distill] asks a nested `claude -p` for the same shape,
// giving it the same facts, and validates what comes back; [Fallback] runs
// it and falls back to Extractive on any failure, returning the claude
// error for the log.
package distill

import (
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// Segment is the dialogue between two flushes of one session.
type Segment struct {
	SessionID, Project string
	Start, End         time.Time
	Trigger            string // auto, pre-compact, session-end, recovery, manual
	Items              []transcript.Item
	// Subagents are the tool calls the session's subagents made: the
	// files they changed are the session's.
	Subagents []transcript.Item
	// Dir is the project root; file paths under it are shown relative to
	// it. Empty leaves paths as the tools gave them.
	Dir string
	// Desk says the session runs in the cerebro desk itself: its /org_*
	// commands are the operator's work there, not housekeeping.
	Desk bool
	// Cwd is where the session ran, as its transcript says; paths under
	// it are shown relative to it too.
	Cwd string
	// Title is the session's title, when Claude Code gave it one.
	Title string
}

// MaxBody bounds an extractive body. A distillate is read at session
// start inside a context budget of 9,000 characters, which must hold the
// newest section whole beside the lines of the others and the inject's
// framing. Measured on bench/distill's two sets (#40): 3,600 kept 0.85 of
// the first set's facts, 5,000 kept 0.88, 6,500 kept 0.87.
const MaxBody = 5000

// section is one subsection's bullets (without the "- ").
type section struct {
	head    string
	bullets []string
	// elastic: the session's own words (requests, the final message,
	// the summary), whose bullets are shortened before any list loses
	// an item.
	elastic bool
}

// render writes the non-empty sections as a body.
func render(sections []section) string {
	var b strings.Builder
	for _, s := range sections {
		head := false
		for _, x := range s.bullets {
			if strings.TrimSpace(x) == "" {
				continue // what was left of a bullet made only of markup
			}
			if !head {
				b.WriteString("### " + s.head + "\n")
				head = true
			}
			if t, ok := strings.CutPrefix(x, nested); ok {
				b.WriteString("  - " + t + "\n")
				continue
			}
			b.WriteString("- " + x + "\n")
		}
	}
	return b.String()
}

// size is a body's length as the inject counts it, in runes.
func size(s string) int { return utf8.RuneCountInString(s) }

// elasticFloor is as short as fitting makes one of the session's own
// lines: a request or a line of the final message keeps its gist.
const elasticFloor = 240

// fit brings the body within limit characters, cutting by value (#40):
// first the commands and file lists (the commands, the files only read,
// then the changed files the session's own words do not name); then the
// answers shown under requests, oldest first; then list items, the
// longest list first, never a list's first bullet (the goal, the first
// outcome) nor its newest ones (where the work stands), with one note
// per list saying how many were left out; last the session's own words —
// requests from the middle, then the longest line of them shortened,
// never under elasticFloor — and then the longest bullets of all. A cut
// ends at a word.
func fit(sections []section, limit int) []section {
	dropped := make([]int, len(sections))
	over := func() bool { return size(render(withNotes(sections, dropped))) > limit }
	if !over() {
		return sections
	}
	trimFiles(sections, ownText(sections), over)
	for over() && dropNested(sections) {
	}
	for _, elastic := range []bool{false, true} {
		for over() {
			longest := -1
			for i, s := range sections {
				// Of the session's own words, only requests go whole:
				// the final message and the summary are shortened.
				if s.elastic == elastic && len(s.bullets) > 2 && (!elastic || s.head == daily.HeadAsked) &&
					(longest < 0 || len(s.bullets) > len(sections[longest].bullets)) {
					longest = i
				}
			}
			if longest < 0 {
				break
			}
			s := &sections[longest]
			s.bullets = append(s.bullets[:1:1], s.bullets[2:]...)
			dropped[longest]++
		}
	}
	for over() && shortenElastic(withNotes(sections, dropped), sections, limit) {
	}
	for over() && shortenLongest(sections) {
	}
	return withNotes(sections, dropped)
}

// ownText is the session's own words in a body, lowercased: what names
// a file worth keeping in the list of changed ones.
func ownText(sections []section) string {
	var b strings.Builder
	for _, s := range sections {
		if s.elastic || s.head == daily.HeadDecided || s.head == daily.HeadLearned || s.head == daily.HeadOpen {
			for _, x := range s.bullets {
				b.WriteString(strings.ToLower(x))
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}

// trimFiles shrinks Files and commands while the body is over: the
// commands go, then the skills and the files only read, then the changed
// files the session's words do not name (counted, "… 4 more"). Its first
// bullet stays, shortened at worst.
func trimFiles(sections []section, own string, over func() bool) {
	at := -1
	for i, s := range sections {
		if s.head == daily.HeadFiles {
			at = i
		}
	}
	if at < 0 {
		return
	}
	s := &sections[at]
	for _, label := range []string{"ran: ", "skills: ", "read: "} {
		for i := len(s.bullets) - 1; i > 0 && over(); i-- {
			if strings.HasPrefix(s.bullets[i], label) {
				s.bullets = append(s.bullets[:i:i], s.bullets[i+1:]...)
			}
		}
	}
	for i, b := range s.bullets {
		if over() && strings.HasPrefix(b, "changed: ") {
			s.bullets[i] = keepNamed(b, own)
		}
	}
}

var codeSpanItem = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("``? ?([^`]+?) ?``?(?: ×\\d+)?") })

// keepNamed rebuilds a "label: `a`, `b`, … 3 more" list with only the
// items whose file name the session's words hold, the rest counted.
func keepNamed(bullet, own string) string {
	label, rest, _ := strings.Cut(bullet, ": ")
	more := 0
	if i := strings.LastIndex(rest, "… "); i >= 0 {
		if n, err := strconv.Atoi(strings.Fields(rest[i+len("… "):])[0]); err == nil {
			more = n
		}
	}
	var kept []string
	for _, m := range codeSpanItem().FindAllStringSubmatch(rest, -1) {
		name := strings.ToLower(path.Base(m[1]))
		if strings.Contains(own, name) {
			kept = append(kept, m[0])
		} else {
			more++
		}
	}
	out := label + ": " + strings.Join(kept, ", ")
	if more > 0 {
		if len(kept) > 0 {
			out += ", "
		}
		out += "… " + itoa(more) + " more"
	}
	return out
}

// dropNested removes the oldest bullet shown under another; false when
// there is none.
func dropNested(sections []section) bool {
	for i := range sections {
		for j, b := range sections[i].bullets {
			if strings.HasPrefix(b, nested) {
				sections[i].bullets = append(sections[i].bullets[:j:j], sections[i].bullets[j+1:]...)
				return true
			}
		}
	}
	return false
}

// shortenElastic cuts the longest line of the session's own words by a
// fifth of its length or what is over the limit, whichever is less; false
// when each is at its floor. view is the body as it renders (with its
// notes), to measure what is over.
func shortenElastic(view, sections []section, limit int) bool {
	over := size(render(view)) - limit
	bi, bj, n := -1, -1, elasticFloor
	for i, s := range sections {
		if !s.elastic {
			continue
		}
		for j, b := range s.bullets {
			if l := len([]rune(b)); l > n {
				bi, bj, n = i, j, l
			}
		}
	}
	if bi < 0 {
		return false
	}
	cut := max(n/5, 20)
	if over > 0 && over < cut {
		cut = over + 2
	}
	sections[bi].bullets[bj] = shorten(sections[bi].bullets[bj], max(elasticFloor, n-cut))
	return true
}

// shortenLongest halves the longest bullet over 80 runes; false when none.
func shortenLongest(sections []section) bool {
	bi, bj, n := -1, -1, 80
	for i, s := range sections {
		for j, b := range s.bullets {
			if l := len([]rune(b)); l > n {
				bi, bj, n = i, j, l
			}
		}
	}
	if bi < 0 {
		return false
	}
	sections[bi].bullets[bj] = shorten(sections[bi].bullets[bj], n/2)
	return true
}

func withNotes(sections []section, dropped []int) []section {
	out := make([]section, len(sections))
	for i, s := range sections {
		out[i] = section{head: s.head, bullets: s.bullets, elastic: s.elastic}
		if dropped[i] > 0 && len(s.bullets) > 0 {
			b := append([]string{s.bullets[0], moreNote(dropped[i])}, s.bullets[1:]...)
			out[i].bullets = b
		}
	}
	return out
}

func moreNote(n int) string {
	if n == 1 {
		return "… 1 earlier item left out"
	}
	return "… " + itoa(n) + " earlier items left out"
}
