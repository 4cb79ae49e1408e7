package blackbox

import (
	"sort"
	"strings"
	"unicode"

	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// Claim is what an inference asserts, as recall reads it off the question:
// the named entities it is about (subject first, object second) and the
// words between them. A denial is kept against the claim, so a question in
// other words about the same entities does not bring it back.
type Claim struct {
	Subject  string `json:"subject"`
	Relation string `json:"relation,omitempty"`
	Object   string `json:"object,omitempty"`
	// Entities are the keys of every entity named (the stem of a name's
	// last word: "Boris Yeltsin" and "Ельцина" and "Yeltsin's" meet by it).
	Entities []string `json:"entities"`
}

// Usable reports whether the claim names two entities: a claim about one
// entity alone would withhold every question about it, so a denial of
// such an inference falls back to its wording.
func (c *Claim) Usable() bool { return c != nil && len(c.Entities) >= 2 }

// covers reports whether a denied claim d covers claim c: every entity d
// names is named by c, whatever the words around them.
func (d Claim) covers(c *Claim) bool {
	if !d.Usable() || !c.Usable() {
		return false
	}
	have := map[string]bool{}
	for _, e := range c.Entities {
		have[e] = true
	}
	for _, e := range d.Entities {
		if !have[e] {
			return false
		}
	}
	return true
}

// openers are capitalised only because a sentence starts with them.
var openers = map[string]bool{
	"possibly": true, "perhaps": true, "maybe": true, "please": true, "could": true, "would": true, "should": true,
	"might": true, "may": true, "will": true, "can": true, "tell": true, "show": true, "find": true, "give": true,
	"whether": true, "if": true, "is": true, "was": true, "did": true, "does": true, "has": true, "had": true,
	"может": true, "возможно": true, "наверное": true, "скажи": true, "покажи": true, "мог": true, "могла": true,
	"могли": true, "был": true, "была": true, "были": true, "правда": true, "как": true, "почему": true, "зачем": true,
	"сколько": true, "дай": true, "найди": true, "расскажи": true, "знал": true, "знала": true, "верно": true,
}

func stemWord(w string) string {
	return textan.StemOf(w)
}

// extractClaim reads the entities of a question: runs of capitalised
// words, leaving out a sentence's first word when it is a question word,
// a stop word or an opener. A run's key is the stem of its last word.
func extractClaim(q string) *Claim {
	type tok struct {
		w     string
		start bool // first word of a sentence
	}
	var toks []tok
	start := true
	var cur []rune
	flush := func(next bool) {
		if len(cur) > 0 {
			toks = append(toks, tok{w: string(cur), start: start})
			start = false
			cur = cur[:0]
		}
		if next {
			start = true
		}
	}
	for _, r := range q {
		switch {
		case textan.IsWordRune(r):
			cur = append(cur, r)
		case r == '\'' || r == '’':
			flush(false)
			toks = append(toks, tok{w: "'"}) // "Yeltsin's": the s is no word
		case r == '.' || r == '?' || r == '!' || r == ';' || r == ':':
			flush(true)
		default:
			flush(false)
		}
	}
	flush(false)
	var runs [][]string
	var between [][]string
	var run, gap []string
	for i, t := range toks {
		if t.w == "'" {
			continue
		}
		if i > 0 && toks[i-1].w == "'" && (t.w == "s" || t.w == "S") {
			continue
		}
		lw := strings.ToLower(t.w)
		r := []rune(t.w)
		capital := unicode.IsUpper(r[0]) && len(r) > 1
		if capital && t.start && (openers[lw] || questionWords[lw] || textan.IsStopWord(lw)) {
			capital = false
		}
		if _, isMonth := month(lw); capital && isMonth {
			capital = false // "May–August" is a period, not two entities
		}
		if capital {
			run = append(run, t.w)
			continue
		}
		if len(run) > 0 {
			runs, between = append(runs, run), append(between, gap)
			run, gap = nil, nil
		}
		if !questionWords[lw] && !textan.IsStopWord(lw) {
			gap = append(gap, lw)
		}
	}
	if len(run) > 0 {
		runs, between = append(runs, run), append(between, gap)
		gap = nil
	}
	if len(runs) == 0 {
		return nil
	}
	c := &Claim{Subject: strings.Join(runs[0], " ")}
	seen := map[string]bool{}
	for _, r := range runs {
		k := stemWord(r[len(r)-1])
		if !seen[k] {
			seen[k] = true
			c.Entities = append(c.Entities, k)
		}
	}
	if len(runs) > 1 {
		c.Object = strings.Join(runs[1], " ")
		c.Relation = strings.Join(between[1], " ")
	} else {
		c.Relation = strings.Join(gap, " ")
	}
	sort.Strings(c.Entities)
	return c
}
