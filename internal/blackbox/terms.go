package blackbox

import (
	"crypto/sha1"
	"encoding/hex"
	"sort"
	"strings"
	"unicode"

	"github.com/kljensen/snowball/english"
	"github.com/kljensen/snowball/russian"
)

// questionWords carry no content of their own in a question.
var questionWords = map[string]bool{
	"who": true, "what": true, "when": true, "where": true, "which": true, "why": true, "how": true,
	"whom": true, "whose": true, "did": true, "does": true, "do": true, "is": true, "are": true,
	"was": true, "were": true, "can": true, "could": true, "my": true, "me": true, "tell": true,
	"кто": true, "что": true, "где": true, "когда": true, "какой": true, "какая": true, "какие": true,
	"мой": true, "моя": true, "мои": true, "мне": true,
}

// terms turns text into the stemmed content words a match counts: Russian
// words by the Russian stemmer, others by the English one, stop words out.
func terms(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if questionWords[w] {
			continue
		}
		cyr := false
		for _, r := range w {
			if unicode.Is(unicode.Cyrillic, r) {
				cyr = true
				break
			}
		}
		switch {
		case cyr && russian.IsStopWord(w), !cyr && english.IsStopWord(w):
			continue
		case cyr:
			w = russian.Stem(w, false)
		case len(w) > 2:
			w = english.Stem(w, false)
		}
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

func uniq(ws []string) []string {
	m := map[string]bool{}
	var out []string
	for _, w := range ws {
		if !m[w] {
			m[w] = true
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}

func shortHash(prefix string, parts ...string) string {
	h := sha1.Sum([]byte(strings.Join(parts, "\x00")))
	return prefix + hex.EncodeToString(h[:6])
}

// inferenceID names "this fact answers this question": the same content
// words and the same fact give the same id, so a denial holds for a
// rephrasing with the same words and not for another question.
func inferenceID(query, fact string) string {
	return shortHash("inf-", strings.Join(uniq(terms(query)), " "), fact)
}
