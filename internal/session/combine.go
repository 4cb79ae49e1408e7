package session

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
	"unicode"

	"github.com/cerebro-mem/cerebro/internal/transcript"
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
//  3. Carried keys that find no copy in this read are forgotten: they were
//     never going to be written (a transcript that is gone, or a message
//     the transcript spells differently).
func Combine(items []transcript.Item, entries []Entry, carried []string) ([]transcript.Item, []string) {
	out := make([]transcript.Item, 0, len(items)+2)
	drop := map[string]int{}
	for _, k := range carried {
		drop[k]++
	}
	for _, it := range items {
		if k := itemKey(it); k != "" && drop[k] > 0 {
			drop[k]--
			continue
		}
		out = append(out, it)
	}
	p, lastMatch := 0, -1
	for i, e := range entries {
		k := MessageKey(e.Role, e.Text)
		for j := p; j < len(out); j++ {
			if out[j].Role == e.Role && itemKey(out[j]) == k {
				p, lastMatch = j+1, i
				break
			}
		}
	}
	var newCarried []string
	for _, e := range entries[lastMatch+1:] {
		if strings.TrimSpace(e.Text) == "" {
			continue
		}
		out = append(out, transcript.Item{Role: e.Role, Text: e.Text, Time: e.Time})
		newCarried = append(newCarried, MessageKey(e.Role, e.Text))
	}
	return out, newCarried
}

func itemKey(it transcript.Item) string {
	if strings.TrimSpace(it.Text) == "" {
		return ""
	}
	return MessageKey(it.Role, it.Text)
}

var (
	commandMessage = regexp.MustCompile(`(?s)<command-message>.*?</command-message>`)
	commandName    = regexp.MustCompile(`(?s)<command-name>(.*?)</command-name>`)
	commandArgs    = regexp.MustCompile(`(?s)<command-args>(.*?)</command-args>`)
)

// MessageKey identifies a message's text independently of how the hook
// input and the transcript each spell it: whitespace is ignored, and a
// slash command's transcript markup counts as the typed command line.
func MessageKey(role, text string) string {
	if strings.Contains(text, "<command-name>") {
		name := commandName.FindStringSubmatch(text)
		args := commandArgs.FindStringSubmatch(text)
		t := commandMessage.ReplaceAllString(text, "")
		t = commandName.ReplaceAllString(t, "")
		t = commandArgs.ReplaceAllString(t, "")
		if name != nil {
			t = name[1] + " " + t
		}
		if args != nil {
			t += " " + args[1]
		}
		text = t
	}
	h := sha256.New()
	h.Write([]byte(role))
	h.Write([]byte{0})
	var buf [4]byte
	for _, r := range text {
		if unicode.IsSpace(r) {
			continue
		}
		n := encodeRune(buf[:], r)
		h.Write(buf[:n])
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

func encodeRune(b []byte, r rune) int {
	s := string(r)
	return copy(b, s)
}
