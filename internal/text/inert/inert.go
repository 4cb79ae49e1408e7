// Package inert makes memory text inert where cerebro hands it to the
// model: the SessionStart inject, auto-recall's context. A note is data a
// cloned repository may have written; placed raw between the inject's
// <memory> tags, a note holding "</memory>" would close its block and put
// what follows outside every block, where it reads as the context's own
// words.
//
// [Text] escapes every tag opener in the text and every ampersand that
// starts an entity, so no tag survives: not "</memory>", not its look-alikes
// (case, spaces, a backslash, a zero-width character, a full-width or
// angle-quote bracket, an entity such as "&lt;/memory&gt;"), and not the
// tags of Claude Code's own framing ("</system-reminder>"). [Attr] is
// [Text] for an attribute value, quoted. Everything else is kept as it is,
// so the text still reads as it was written.
package inert

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// openers are the characters a tag can open with, to a reader: "<" and the
// brackets that look like it.
var openers = map[rune]bool{
	'<':      true,
	'\uFF1C': true, // ＜ full-width
	'\uFE64': true, // ﹤ small
	'\u2039': true, // ‹ single angle quotation mark
	'\u3008': true, // 〈 CJK angle bracket
	'\u2329': true, // 〈 left-pointing angle bracket
	'\u27E8': true, // ⟨ mathematical angle bracket
	'\u02C2': true, // ˂ modifier letter arrowhead
	'\u1438': true, // ᐸ Canadian syllabics
	'\u276E': true, // ❮ heavy angle quotation mark
}

// slashes are the characters that make an opener a closing tag, to a
// reader: "/" and its look-alikes, and "\" ("<\/memory>" as JSON writes it).
var slashes = map[rune]bool{
	'/': true, '\\': true,
	'\uFF0F': true, // ／ full-width
	'\u2215': true, // ∕ division slash
	'\u2044': true, // ⁄ fraction slash
	'\u29F8': true, // ⧸ big solidus
	'\uFF3C': true, // ＼ full-width reverse solidus
}

// ignorable is what a reader skips between an opener and a name: blanks,
// format characters (zero-width space and joiners, the byte-order mark,
// soft hyphen, bidi controls) and combining marks.
func ignorable(r rune) bool {
	return unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Mn, r) || r == '\u034F'
}

// Text returns s with every tag opener escaped ("<" as "&lt;", a look-alike
// as its numeric entity) when what follows it, past blanks and invisible
// characters, is a letter, a slash, "!" or "?": the start of a tag, a
// closing tag, a comment or a declaration. An "&" that starts an entity
// ("&lt;", "&#60;", "&#x3c;", "&lt" without its semicolon) becomes "&amp;",
// so an entity written in a note is never read as the character it names.
func Text(s string) string {
	if !strings.ContainsAny(s, "&") && !hasOpener(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '&' && entityStart(s[i+n:]):
			b.WriteString("&amp;")
		case openers[r] && tagStart(s[i+n:]):
			if r == '<' {
				b.WriteString("&lt;")
			} else {
				fmt.Fprintf(&b, "&#x%X;", r)
			}
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Attr is [Text] for a tag's attribute value, double-quoted, with quotes
// and control characters escaped (a newline in a project path stays on
// the tag's line).
func Attr(s string) string { return strconv.Quote(Text(s)) }

func hasOpener(s string) bool {
	for _, r := range s {
		if openers[r] {
			return true
		}
	}
	return false
}

// tagStart reports whether rest, past ignorable characters, starts like
// the inside of a tag.
func tagStart(rest string) bool {
	for _, r := range rest {
		switch {
		case ignorable(r):
			continue
		case unicode.IsLetter(r), slashes[r], r == '!', r == '?':
			return true
		default:
			return false
		}
	}
	return false
}

// entityStart reports whether rest (after an "&") starts an entity: a
// letter or "#".
func entityStart(rest string) bool {
	r, _ := utf8.DecodeRuneInString(rest)
	return r == '#' || r < utf8.RuneSelf && unicode.IsLetter(r)
}
