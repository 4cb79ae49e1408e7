// Package private removes what a person marked as not to be kept: text
// between <private> and </private> in a prompt, or in a reply that quotes
// it, never reaches a journal, a daily file, an index or a model. The
// convention is the one other memory tools taught their users.
//
//	text = private.Strip(text)
//
// Each marked span becomes [Marker], so a reader sees that something was
// withheld; an unclosed <private> withholds the rest of the text. Tags are
// matched without regard to case. The capture hooks and the flush's
// transcript read both call Strip, the same way, so a message's journal
// copy and its transcript copy still match.
package private

import "strings"

// Marker stands in for each withheld span.
const Marker = "[private]"

const (
	open  = "<private>"
	close = "</private>"
)

// Strip returns text with every <private>…</private> span replaced by
// [Marker]; text without an opening tag comes back as it is.
func Strip(text string) string {
	i := index(text, open, 0)
	if i < 0 {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	from := 0
	for i >= 0 {
		b.WriteString(text[from:i])
		b.WriteString(Marker)
		end := index(text, close, i+len(open))
		if end < 0 {
			return b.String() // unclosed: the rest is withheld
		}
		from = end + len(close)
		i = index(text, open, from)
	}
	b.WriteString(text[from:])
	return b.String()
}

// Has reports whether text holds an opening tag.
func Has(text string) bool { return index(text, open, 0) >= 0 }

// index finds tag (lower-case ASCII) in s at or after from, ignoring case.
func index(s, tag string, from int) int {
	for i := from; i+len(tag) <= len(s); i++ {
		j := strings.IndexByte(s[i:], '<')
		if j < 0 {
			return -1
		}
		i += j
		if i+len(tag) <= len(s) && strings.EqualFold(s[i:i+len(tag)], tag) {
			return i
		}
	}
	return -1
}
