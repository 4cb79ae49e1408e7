// Package private removes what a person marked as not to be kept: text
// between <private> and </private> in a prompt, or in a reply that quotes
// it, never reaches a journal, a daily file, an index or a model. The
// convention is the one other memory tools taught their users.
//
//	text = private.Strip(text)
//
// Each marked span becomes [Marker], so a reader sees that something was
// withheld; an unclosed <private> withholds the rest of the text. A tag is
// read the way a person may write it: any case, blanks inside the
// brackets ("< private >", "</ private>"), attributes ("<private
// reason=…>"); spans nest, so the text after an inner close is still
// withheld until the outer one closes. The capture hooks and the flush's
// transcript read both call Strip, the same way, so a message's journal
// copy and its transcript copy still match.
package private

import (
	"strings"
)

// Marker stands in for each withheld span.
const Marker = "[private]"

const name = "private"

// maxTag bounds how far a tag's closing '>' is looked for: an opening
// "<private" without one within it withholds the rest of the text.
const maxTag = 128

// Strip returns text with every <private>…</private> span replaced by
// [Marker]; text without an opening tag comes back as it is.
func Strip(text string) string {
	i, end, ok := nextTag(text, 0, true)
	if !ok {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	from := 0
	for ok {
		b.WriteString(text[from:i])
		b.WriteString(Marker)
		// Inside a span: count nested opens until the depth is back to 0.
		depth := 1
		p := end
		for depth > 0 {
			j, e, found := nextTag(text, p, false)
			if !found {
				return b.String() // unclosed: the rest is withheld
			}
			if isOpen(text, j) {
				depth++
			} else {
				depth--
			}
			p = e
		}
		from = p
		i, end, ok = nextTag(text, from, true)
	}
	b.WriteString(text[from:])
	return b.String()
}

// Has reports whether text opens a private span.
func Has(text string) bool {
	_, _, ok := nextTag(text, 0, true)
	return ok
}

// isOpen reports whether the tag at i is an opening one.
func isOpen(text string, i int) bool {
	j := i + 1
	for j < len(text) && isBlank(text[j]) {
		j++
	}
	return j >= len(text) || text[j] != '/'
}

// nextTag finds the next private tag from from: where it starts and where
// it ends (past its '>', or the text's end when it has none). With
// openOnly, closing tags are passed over.
func nextTag(text string, from int, openOnly bool) (start, end int, ok bool) {
	for from < len(text) {
		k := strings.IndexByte(text[from:], '<')
		if k < 0 {
			return 0, 0, false
		}
		i := from + k
		if e, isTag, closing := tagAt(text, i); isTag && !(openOnly && closing) {
			return i, e, true
		}
		from = i + 1
	}
	return 0, 0, false
}

// tagAt reads a private tag at text[i] == '<': "<", blanks, an optional
// "/", blanks, "private" in any case, then '>', a blank or '/' (so
// "<privateer>" is no tag), then anything up to the first '>'.
func tagAt(text string, i int) (end int, isTag, closing bool) {
	j := i + 1
	for j < len(text) && isBlank(text[j]) {
		j++
	}
	if j < len(text) && text[j] == '/' {
		closing = true
		j++
		for j < len(text) && isBlank(text[j]) {
			j++
		}
	}
	if j+len(name) > len(text) || !strings.EqualFold(text[j:j+len(name)], name) {
		return 0, false, false
	}
	j += len(name)
	if j < len(text) && text[j] != '>' && !isBlank(text[j]) && text[j] != '/' {
		return 0, false, false
	}
	limit := min(len(text), j+maxTag)
	if k := strings.IndexByte(text[j:limit], '>'); k >= 0 {
		return j + k + 1, true, closing
	}
	if closing {
		return 0, false, false // a "</private" never closed closes nothing
	}
	return len(text), true, false
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
