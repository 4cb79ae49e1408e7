package search

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/text/frontmatter"
)

// The frontmatter of most notes is a few "key: word" lines and lists of
// words ("tags: [a, b]", "aliases:" over "- a" lines). A YAML decoder
// costs ~25 µs a note for them, a twentieth of a cold index's CPU; what
// the index keeps of a frontmatter is its strings, so a block made only
// of lines whose every value is a string by any reading of YAML is read
// here, and everything else by the decoder, which gives the same map for
// these (TestSimpleFrontmatterAsYAML).

// noteFrontmatter is frontmatter.Map's map of data, its errors as nil.
func noteFrontmatter(data []byte) map[string]any {
	if b, err := frontmatter.Split(data); err == nil && b.Format == frontmatter.YAML {
		if m, ok := simpleYAML(b.YAML); ok {
			return m
		}
	}
	fm, _, err := frontmatter.Map(data)
	if err != nil {
		return nil
	}
	return fm
}

// simpleYAML reads block when it has only top-level "key: word", "key:
// [word, word]", "key:" with "- word" lines under it, blank lines and
// comments; ok is false for anything else.
func simpleYAML(block []byte) (m map[string]any, ok bool) {
	m = map[string]any{}
	list := ""   // the key whose "- word" lines may follow
	indent := -1 // of its first "- word" line: a deeper one would continue the word before
	for len(block) > 0 {
		line, rest, _ := bytes.Cut(block, []byte("\n"))
		block = rest
		l := string(line)
		t := strings.TrimLeft(l, " ")
		switch {
		case strings.ContainsAny(l, "\t\r"):
			return nil, false
		case t == "" || t[0] == '#':
			continue
		case strings.HasPrefix(t, "- "):
			item := t[2:]
			if indent < 0 {
				indent = len(l) - len(t)
			}
			if list == "" || len(l)-len(t) != indent || !plainWord(item) {
				return nil, false
			}
			items, _ := m[list].([]any)
			m[list] = append(items, item)
			continue
		case t != l:
			return nil, false // indented, not a list item: a nested map
		}
		list, indent = "", -1
		key, val, found := strings.Cut(l, ":")
		if !found || !plainKey(key) {
			return nil, false
		}
		if _, dup := m[key]; dup {
			return nil, false // the decoder refuses a key defined twice
		}
		switch {
		case val == "":
			m[key], list = nil, key
		case val[0] != ' ':
			return nil, false
		case strings.HasPrefix(val, " [") && strings.HasSuffix(val, "]"):
			items := []any{}
			if inner := strings.TrimSpace(val[2 : len(val)-1]); inner != "" {
				for _, it := range strings.Split(inner, ",") {
					it = strings.TrimLeft(it, " ")
					if !plainWord(it) {
						return nil, false
					}
					items = append(items, it)
				}
			}
			m[key] = items
		case plainWord(val[1:]):
			m[key] = val[1:]
		default:
			return nil, false
		}
	}
	if len(m) == 0 {
		return nil, true // as the decoder leaves a block of comments
	}
	return m, true
}

// plainKey is a key YAML reads as this string.
func plainKey(k string) bool {
	if k == "" || !resolvesToString(k) {
		return false
	}
	for i, r := range k {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && (r == '-' || r >= '0' && r <= '9')) {
			return false
		}
	}
	return true
}

// plainWord is a plain scalar YAML reads as this very string: it starts
// with a letter (no number, date, tag, anchor, quote or indicator), holds
// only letters, digits, marks, inner single spaces and a few marks that
// mean nothing to YAML, and is none of the words YAML reads as a boolean
// or null. In a flow list a comma or bracket would end it: none is
// allowed anywhere.
func plainWord(s string) bool {
	if s == "" || !resolvesToString(s) {
		return false
	}
	first, _ := utf8.DecodeRuneInString(s)
	if !unicode.IsLetter(first) || strings.HasSuffix(s, " ") || strings.Contains(s, "  ") {
		return false
	}
	for _, r := range s {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), unicode.IsMark(r):
		case r == ' ', r == '.', r == '-', r == '_', r == '/', r == '(', r == ')':
		default:
			return false
		}
	}
	return true
}

// resolvesToString is false for the plain words YAML 1.1 and 1.2 read as
// something else than a string.
func resolvesToString(s string) bool {
	switch strings.ToLower(s) {
	case "true", "false", "null", "yes", "no", "on", "off", "y", "n":
		return false
	}
	return true
}
