package distill

import (
	"strings"

	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// sent is a sentence with its lowercased words, computed once per
// distillation: the rules below match on words, which gives whole-word
// matching in every script (Go's \b knows only ASCII) without regexps.
type sent struct {
	text  string
	words []string
}

// sentenceCache analyses each distinct text once per distillation.
type sentenceCache map[string][]sent

func (c sentenceCache) of(text string) []sent {
	if s, ok := c[text]; ok {
		return s
	}
	var out []sent
	for _, s := range sentences(text) {
		out = append(out, sent{text: s, words: words(s)})
	}
	c[text] = out
	return out
}

// words splits s into lowercased words of letters, digits and apostrophes.
func words(s string) []string {
	return textan.WordsWith(strings.ReplaceAll(s, "’", "'"), "'")
}

// phraseList matches word sequences.
type phraseList [][]string

func phrases(ps ...string) phraseList {
	out := make(phraseList, len(ps))
	for i, p := range ps {
		out[i] = words(p)
	}
	return out
}

// in reports whether any phrase occurs in ws.
func (pl phraseList) in(ws []string) bool {
	for _, p := range pl {
		for i := 0; i+len(p) <= len(ws); i++ {
			if equalWords(ws[i:i+len(p)], p) {
				return true
			}
		}
	}
	return false
}

// prefix reports whether ws starts with any phrase.
func (pl phraseList) prefix(ws []string) bool {
	for _, p := range pl {
		if len(p) <= len(ws) && equalWords(ws[:len(p)], p) {
			return true
		}
	}
	return false
}

func equalWords(a, b []string) bool {
	for i := range b {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func wordSet(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}
