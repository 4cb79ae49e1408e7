// Package textan is the one text analyser every reader of memory shares:
// search's index and queries, the black box's recall, the org vault's
// query and the knowledge graph's entity matching split, fold and stem
// words the same way, so a query matches or misses the same text
// whichever command runs it.
//
// Use [Words] for lowercase tokens (ё folded to е, stress marks dropped),
// [Stem] or [Stems] for Snowball stems (Russian for Cyrillic words,
// English for Latin ones, identifiers such as v1 or a828e60 as they are),
// [Terms] for the stemmed content words of a text (stop words out) and
// [QueryTerms] for a query's distinct ones. [Version] names these rules;
// an index built with other rules must be rebuilt.
package textan

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
	"github.com/kljensen/snowball/russian"
)

// Version names the tokenizing and stemming rules; search puts it in its
// index fingerprint, so changing the rules rebuilds every index.
const Version = "words-snowball-en-ru-3"

// Words splits text into lowercase words of Unicode letters and digits,
// folding ё to е so that both spellings of a Russian word meet.
func Words(text string) []string { return split(text, "") }

// split folds text into one lowercase string, a space where a word ends,
// and cuts it there: one allocation for the text and one for the list,
// not one per word (package-level phrase tables are split at start-up,
// and the index splits every line of every note).
func split(text, keep string) []string {
	if keep == "" {
		if n := foldedWords(text); n >= 0 {
			return cutWords(text, n)
		}
	}
	inWord := func(r rune) bool { return IsWordRune(r) || keep != "" && strings.ContainsRune(keep, r) }
	if folded(text) {
		return strings.FieldsFunc(text, func(r rune) bool { return !inWord(r) })
	}
	var b strings.Builder
	b.Grow(len(text))
	for i := 0; i < len(text); {
		if c := text[i]; c < utf8.RuneSelf && keep == "" {
			// ASCII without Unicode tables: most of a note's text
			switch {
			case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
				b.WriteByte(c)
			case 'A' <= c && c <= 'Z':
				b.WriteByte(c + 'a' - 'A')
			default:
				b.WriteByte(' ')
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		switch {
		case inWord(r):
			r = unicode.ToLower(r)
			if r == 'ё' {
				r = 'е'
			}
			b.WriteRune(r)
		case unicode.Is(unicode.Mn, r):
			// combining marks (stress accents in Russian text) are dropped without splitting the word
		default:
			b.WriteByte(' ')
		}
	}
	if keep == "" {
		// only letters and digits are left between the spaces
		return cutWords(b.String(), strings.Count(b.String(), " ")+1)
	}
	return strings.Fields(b.String())
}

// foldedWords counts the words of text when it needs no folding (see
// folded), else it is -1: [Words]' common case in one pass with ASCII
// read without decoding, as the index reads every line of every note.
func foldedWords(text string) int {
	n, in := 0, false
	for i := 0; i < len(text); {
		var word bool
		if c := text[i]; c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				return -1
			}
			word = 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
			i++
		} else {
			r, size := utf8.DecodeRuneInString(text[i:])
			switch {
			case 'а' <= r && r <= 'я': // lowercase Russian, the other common case
				word = true
			case r == 'ё' || unicode.IsUpper(r) || unicode.IsTitle(r) || unicode.Is(unicode.Mn, r):
				return -1
			default:
				word = IsWordRune(r)
			}
			i += size
		}
		if word && !in {
			n++
		}
		in = word
	}
	return n
}

// cutWords is the n words of text, which needs no folding.
func cutWords(text string, n int) []string {
	out := make([]string, 0, n)
	start := -1
	for i := 0; i < len(text); {
		var word bool
		size := 1
		if c := text[i]; c < utf8.RuneSelf {
			word = 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(text[i:])
			word = 'а' <= r && r <= 'я' || IsWordRune(r)
		}
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			out = append(out, text[start:i])
			start = -1
		}
		i += size
	}
	if start >= 0 {
		out = append(out, text[start:])
	}
	return out
}

// folded reports whether text needs no folding: no upper case, no ё,
// no combining mark (most lines of a note, every phrase of a rule table).
func folded(text string) bool {
	for _, r := range text {
		if r < 0x80 {
			if 'A' <= r && r <= 'Z' {
				return false
			}
			continue
		}
		if r == 'ё' || unicode.IsUpper(r) || unicode.IsTitle(r) || unicode.Is(unicode.Mn, r) {
			return false
		}
	}
	return true
}

// Cyrillic reports whether text is written in Cyrillic rather than Latin
// letters: more of its letters are Cyrillic. A text with no letter of
// either is not.
func Cyrillic(text string) bool {
	cyr, lat := 0, 0
	for _, r := range text {
		switch {
		case unicode.Is(unicode.Cyrillic, r):
			cyr++
		case unicode.Is(unicode.Latin, r):
			lat++
		}
	}
	return cyr > lat
}

// Stem reduces one lowercase word to its Snowball stem, Russian for words
// in Cyrillic script and English otherwise (an irregular past or plural
// by its base: "ran" as "run"); digits and mixed words stay as they are.
func Stem(w string) string {
	switch script(w) {
	case cyrillic:
		st := russian.Stem(w, true)
		if base, ok := suppletive()[st]; ok {
			return base
		}
		return st
	case latin:
		if base, ok := irregular()[w]; ok {
			w = base
		}
		return english.Stem(w, true)
	}
	return w
}

// StemOf is the stem of one word as written (any case, ё or е): [Stem]
// of its lowercase, folded form.
func StemOf(w string) string {
	ws := Words(w)
	if len(ws) != 1 {
		return strings.ToLower(w)
	}
	return Stem(ws[0])
}

// IsWordRune reports whether r belongs to a word: a Unicode letter or
// digit, what [Words] keeps.
func IsWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// WordsWith is [Words] with the runes of keep kept inside words too
// (an apostrophe, so that "didn't" stays one word).
func WordsWith(text, keep string) []string { return split(text, keep) }

// Stems tokenizes and stems text, in order, keeping duplicates and stop
// words: what an index stores.
func Stems(text string) []string {
	ws := Words(text)
	for i, w := range ws {
		ws[i] = Stem(w)
	}
	return ws
}

// StemmedText is the stems of text joined by spaces.
func StemmedText(text string) string { return strings.Join(Stems(text), " ") }

// Terms is the stemmed content words of text, in order with duplicates:
// stop words, and the words of each extra set (lowercase, ё as е), left
// out.
func Terms(text string, extra ...map[string]bool) []string {
	var out []string
	for _, w := range Words(text) {
		if IsStopWord(w) || skipped(w, extra) {
			continue
		}
		out = append(out, Stem(w))
	}
	return out
}

func skipped(w string, extra []map[string]bool) bool {
	for _, m := range extra {
		if m[w] {
			return true
		}
	}
	return false
}

// QueryTerms turns a query into distinct stems, dropping stop words
// unless nothing else is left: a query of stop words alone ("the who")
// still asks for something.
func QueryTerms(query string) []string {
	var kept, all []string
	seen := map[string]bool{}
	for _, w := range Words(query) {
		s := Stem(w)
		if seen[s] {
			continue
		}
		seen[s] = true
		all = append(all, s)
		if !IsStopWord(w) {
			kept = append(kept, s)
		}
	}
	if len(kept) == 0 {
		return all
	}
	return kept
}

// IsStopWord reports whether a lowercase word is an English or Russian
// stop word (Snowball's lists).
func IsStopWord(w string) bool {
	switch script(w) {
	case cyrillic:
		return russian.IsStopWord(w)
	case latin:
		return english.IsStopWord(w)
	}
	return false
}

type scriptKind int

const (
	other scriptKind = iota
	latin
	cyrillic
)

// script is the script of a word's letters; a word mixing scripts or
// holding digits is left unstemmed (identifiers, versions, hashes).
func script(w string) scriptKind {
	k := other
	for _, r := range w {
		var s scriptKind
		switch {
		case unicode.Is(unicode.Cyrillic, r):
			s = cyrillic
		case unicode.Is(unicode.Latin, r):
			s = latin
		default:
			return other
		}
		if k != other && k != s {
			return other
		}
		k = s
	}
	return k
}
