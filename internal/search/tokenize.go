package search

import (
	"strings"
	"unicode"

	"github.com/kljensen/snowball/english"
	"github.com/kljensen/snowball/russian"
)

// TokenizerVersion names the tokenizing and stemming rules; it is part of
// the index fingerprint, so changing the rules rebuilds every index.
const TokenizerVersion = "words-snowball-en-ru-1"

// Words splits text into lowercase words of Unicode letters and digits,
// folding ё to е so that both spellings of a Russian word meet.
func Words(text string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for _, r := range text {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			r = unicode.ToLower(r)
			if r == 'ё' {
				r = 'е'
			}
			b.WriteRune(r)
		case unicode.Is(unicode.Mn, r):
			// combining marks (stress accents in Russian text) are dropped without splitting the word
		default:
			flush()
		}
	}
	flush()
	return out
}

// Stem reduces one lowercase word to its Snowball stem, Russian for words
// in Cyrillic script and English otherwise; digits and mixed words stay as
// they are.
func Stem(w string) string {
	switch script(w) {
	case cyrillic:
		return russian.Stem(w, true)
	case latin:
		return english.Stem(w, true)
	}
	return w
}

// Stems tokenizes and stems text, in order, keeping duplicates.
func Stems(text string) []string {
	ws := Words(text)
	for i, w := range ws {
		ws[i] = Stem(w)
	}
	return ws
}

// StemmedText is what the index stores in its FTS5 column: the stems
// joined by spaces, for the unicode61 tokenizer to split again.
func StemmedText(text string) string { return strings.Join(Stems(text), " ") }

// QueryStems turns a query into distinct stems, dropping English and
// Russian stop words unless nothing else is left.
func QueryStems(query string) []string {
	ws := Words(query)
	var kept, all []string
	seen := map[string]bool{}
	for _, w := range ws {
		s := Stem(w)
		if seen[s] {
			continue
		}
		seen[s] = true
		all = append(all, s)
		if !isStopWord(w) {
			kept = append(kept, s)
		}
	}
	if len(kept) == 0 {
		return all
	}
	return kept
}

// IsStopWord reports whether a lowercase word is an English or Russian
// stop word, which queries leave out.
func IsStopWord(w string) bool { return isStopWord(w) }

func isStopWord(w string) bool {
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
