package shortterm

import (
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/shortterm/capture"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// Combine builds a segment's dialogue from the two records of it: items,
// the transcript read from the saved offset (complete lines only), and
// entries, the journal of hook inputs since the last flush. carried are the
// keys of journal messages that an earlier flush already wrote before the
// transcript had them.
//
// The rule, which neither loses nor doubles a message:
//
//  1. The transcript is the record: it is complete (intermediate assistant
//     text, tool calls) and in order. Every item is kept, except the first
//     copy of each carried message, which an earlier section already holds.
//  2. The journal only fills the transcript's lag. Its entries are matched,
//     in order, against the items (same role, same text up to whitespace
//     and slash-command markup). Claude Code writes the transcript in order,
//     so every entry before the last matched one is in the transcript, even
//     when it did not match textually, and is dropped. Entries after the
//     last match are the tail the transcript has not written yet (at Stop
//     the final assistant message is usually missing for ~100 ms; with no
//     readable transcript, it is everything): they are appended, and their
//     keys are returned as the new carried list.
//  3. A carried key that finds no copy in this read waits for a later one
//     (the transcript may lag past several flushes), until the transcript
//     shows a message written well after it (its copy was then never
//     going to come: a message the transcript spells differently) or
//     [MaxCarried] newer keys push it out.
func Combine(items []transcript.Item, entries []capture.Entry, carried []capture.Carry) ([]transcript.Item, []capture.Carry) {
	out := make([]transcript.Item, 0, len(items)+2)
	found := make([]bool, len(carried))
	var newest time.Time
	for _, it := range items {
		if it.Time.After(newest) {
			newest = it.Time
		}
		k := itemKey(it)
		hit := false
		for i, c := range carried {
			if !found[i] && k != "" && c.Key == k {
				found[i], hit = true, true
				break
			}
		}
		if !hit {
			out = append(out, it)
		}
	}
	var newCarried []capture.Carry
	for i, c := range carried {
		if !found[i] && !newest.After(c.Time.Add(carryGrace)) {
			newCarried = append(newCarried, c)
		}
	}
	p, lastMatch := 0, -1
	for i, e := range entries {
		k := capture.MessageKey(e.Role, e.Text)
		for j := p; j < len(out); j++ {
			if out[j].Role == e.Role && itemKey(out[j]) == k {
				p, lastMatch = j+1, i
				break
			}
		}
	}
	for _, e := range entries[lastMatch+1:] {
		if strings.TrimSpace(e.Text) == "" {
			continue
		}
		text := e.Text
		if e.Role == transcript.RoleUser {
			// The hook's prompt may carry IDE context the transcript
			// reader drops; the section shows what was typed.
			if text = transcript.CleanUser(text); text == "" {
				continue
			}
		}
		out = append(out, transcript.Item{Role: e.Role, Text: text, Time: e.Time})
		newCarried = append(newCarried, capture.Carry{Key: capture.MessageKey(e.Role, e.Text), Time: e.Time})
	}
	if len(newCarried) > MaxCarried {
		newCarried = newCarried[len(newCarried)-MaxCarried:]
	}
	return out, newCarried
}

// MaxCarried bounds the carried list.
const MaxCarried = 32

// carryGrace is how much later than a carried message a transcript message
// must be before the carried one is given up: hook and transcript
// timestamps come from one clock but not at one instant.
const carryGrace = 30 * time.Second

func itemKey(it transcript.Item) string {
	if strings.TrimSpace(it.Text) == "" {
		return ""
	}
	return capture.MessageKey(it.Role, it.Text)
}
