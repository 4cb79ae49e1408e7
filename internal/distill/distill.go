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

	"github.com/cerebro-mem/cerebro/internal/transcript"
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
}

// The subsection headings, in the order they appear.
const (
	HeadAsked   = "Asked"
	HeadDone    = "Done"
	HeadDecided = "Decided"
	HeadFiles   = "Files and commands"
	HeadOpen    = "Open"
)

// Headings lists the subsections in order.
var Headings = []string{HeadAsked, HeadDone, HeadDecided, HeadFiles, HeadOpen}

// MaxBody bounds an extractive body; a distillate is read at session start
// inside a context budget of about 9,000 characters.
const MaxBody = 2500

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

// fit drops bullets, from the longest section's tail, until the body is
// within limit characters. The dropped count is noted so the reader knows.
func fit(sections []section, limit int) []section {
	dropped := make([]int, len(sections))
	for len(render(withNotes(sections, dropped))) > limit {
		longest := -1
		for i, s := range sections {
			if len(s.bullets) > 1 && (longest < 0 || len(s.bullets) > len(sections[longest].bullets)) {
				longest = i
			}
		}
		if longest < 0 {
			break
		}
		s := &sections[longest]
		s.bullets = s.bullets[:len(s.bullets)-1]
		dropped[longest]++
	}
	return withNotes(sections, dropped)
}

func withNotes(sections []section, dropped []int) []section {
	out := make([]section, len(sections))
	for i, s := range sections {
		out[i] = section{head: s.head, bullets: s.bullets}
		if dropped[i] > 0 {
			out[i].bullets = append(append([]string(nil), s.bullets...), moreNote(dropped[i]))
		}
	}
	return out
}

func moreNote(n int) string {
	if n == 1 {
		return "… and 1 more"
	}
	return "… and " + itoa(n) + " more"
}
