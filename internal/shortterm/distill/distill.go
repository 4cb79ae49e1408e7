// Package distill turns a segment of dialogue into the distillate that a
// flush writes into the daily file: the body of one "## " section, made of
// the subsections "### Asked", "### Done", "### Decided", "### Files and
// commands" and "### Open", each a bullet list present only when non-empty.
//
// [Extractive] is the default: deterministic, no model, cheap enough for a
// hook. [Claude.Distill] asks a nested `claude -p` for the same shape and
// validates what comes back; [Fallback] runs it and falls back to
// Extractive on any failure, returning the claude error for the log.
package distill

import (
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/shortterm/daily"
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
}

// The subsection headings, in the order they appear: the daily format's,
// which package daily owns (its readers look the lists up by them).
const (
	HeadAsked   = daily.HeadAsked
	HeadDone    = daily.HeadDone
	HeadDecided = daily.HeadDecided
	HeadLearned = daily.HeadLearned
	HeadFiles   = daily.HeadFiles
	HeadOpen    = daily.HeadOpen
)

// Headings lists the subsections in order.
var Headings = []string{HeadAsked, HeadDone, HeadDecided, HeadLearned, HeadFiles, HeadOpen}

// MaxBody bounds an extractive body: a distillate is read at session start
// inside a context budget of 9,000 characters, which holds two full
// sections and the inject's own framing.
const MaxBody = 3600

// section is one subsection's bullets (without the "- ").
type section struct {
	head    string
	bullets []string
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
			b.WriteString("- " + x + "\n")
		}
	}
	return b.String()
}

// fit cuts bullets until the body is within limit characters. It cuts
// from the longest list, never its first bullet (the goal, the first
// outcome) nor its newest ones (where the work stands): the oldest of the
// middle go first, and one note per list says how many were left out,
// where they were.
func fit(sections []section, limit int) []section {
	dropped := make([]int, len(sections))
	for len(render(withNotes(sections, dropped))) > limit {
		longest := -1
		for i, s := range sections {
			if len(s.bullets) > 2 && (longest < 0 || len(s.bullets) > len(sections[longest].bullets)) {
				longest = i
			}
		}
		if longest < 0 {
			// Every list is down to two bullets: shorten the longest bullet.
			if !shortenLongest(sections) {
				break
			}
			continue
		}
		s := &sections[longest]
		s.bullets = append(s.bullets[:1:1], s.bullets[2:]...)
		dropped[longest]++
	}
	return withNotes(sections, dropped)
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
		out[i] = section{head: s.head, bullets: s.bullets}
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
