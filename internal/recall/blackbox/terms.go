package blackbox

import (
	"crypto/sha1"
	"encoding/hex"
	"sort"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// questionWords carry no content of their own in a question.
var questionWords = map[string]bool{
	"who": true, "what": true, "when": true, "where": true, "which": true, "why": true, "how": true,
	"whom": true, "whose": true, "did": true, "does": true, "do": true, "is": true, "are": true,
	"was": true, "were": true, "can": true, "could": true, "my": true, "me": true, "tell": true,
	"кто": true, "что": true, "где": true, "когда": true, "какой": true, "какая": true, "какие": true,
	"мой": true, "моя": true, "мои": true, "мне": true,
}

// terms turns text into the stemmed content words a match counts: the
// shared analyser's, question words out too.
func terms(text string) []string { return textan.Terms(text, questionWords) }

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
