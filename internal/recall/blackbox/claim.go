package blackbox

import (
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/cerebro-mem/cerebro/internal/recall/tables"
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
	return namesAll(c.Entities, d.Entities)
}

// namesAll reports whether keys name every entity of want (see
// sameEntity).
func namesAll(keys, want []string) bool {
	for _, w := range want {
		if !slices.ContainsFunc(keys, func(k string) bool { return sameEntity(k, w) }) {
			return false
		}
	}
	return true
}

// sameEntity reports whether two entity keys name the same entity: the
// same key, or a Cyrillic and a Latin key whose Latin spellings meet —
// "ельцин" (Eltsin by the tables' fixed transliteration) and "yeltsin",
// "денис" and "deni" (English Snowball cuts the s). The spellings meet when
// one is the other or starts it, at least four letters and at most two
// apart; a leading "ye" reads as "e" and "x" as "ks", as Russian names are
// written in English.
func sameEntity(a, b string) bool {
	if a == b {
		return true
	}
	if isCyrillic(a) == isCyrillic(b) {
		return false
	}
	la, lb := latinKey(a), latinKey(b)
	if len(la) > len(lb) {
		la, lb = lb, la
	}
	return la != "" && (la == lb || len(la) >= 4 && strings.HasPrefix(lb, la) && len(lb)-len(la) <= 2)
}

func latinKey(k string) string {
	n, err := tables.Normalize(k)
	if err != nil {
		return ""
	}
	n = strings.ReplaceAll(n, "x", "ks")
	if strings.HasPrefix(n, "ye") {
		n = n[1:]
	}
	return n
}

// openers are capitalised only because a sentence starts with them.
var openers = map[string]bool{
	"possibly": true, "perhaps": true, "maybe": true, "please": true, "could": true, "would": true, "should": true,
	"might": true, "may": true, "will": true, "can": true, "tell": true, "show": true, "find": true, "give": true,
	"whether": true, "if": true, "is": true, "was": true, "did": true, "does": true, "has": true, "had": true,
	"может": true, "возможно": true, "наверное": true, "скажи": true, "покажи": true, "мог": true, "могла": true,
	"могли": true, "был": true, "была": true, "были": true, "правда": true, "как": true, "почему": true, "зачем": true,
	"сколько": true, "дай": true, "найди": true, "расскажи": true, "знал": true, "знала": true, "верно": true,
	// the openings of an answer
	"ваш": true, "ваша": true, "ваше": true, "ваши": true, "твой": true, "твоя": true, "твои": true, "да": true, "нет": true,
	"yes": true, "no": true, "according": true, "based": true, "also": true, "researched": true, "about": true,
	"никто": true, "ничего": true, "nobody": true, "none": true, "nothing": true,
}

// extractClaim reads the entities of a question: runs of capitalised
// words, leaving out a sentence's first word when it is a question word,
// a stop word or an opener. A run's key is the stem of its last word.
func extractClaim(q string) *Claim {
	runs, between, gap := entityRuns(q)
	if len(runs) == 0 {
		return nil
	}
	c := &Claim{Subject: strings.Join(runs[0], " ")}
	seen := map[string]bool{}
	for _, r := range runs {
		k := textan.StemOf(r[len(r)-1])
		if !seen[k] {
			seen[k] = true
			c.Entities = append(c.Entities, k)
		}
	}
	if len(runs) > 1 {
		c.Object = strings.Join(runs[1], " ")
		c.Relation = strings.Join(between[1], " ")
	} else if c.Relation = strings.Join(gap, " "); c.Relation == "" {
		c.Relation = strings.Join(between[0], " ") // "кто из моих друзей мог знать Ельцина"
	}
	sort.Strings(c.Entities)
	return c
}

// entityRuns reads the runs of capitalised words of a text, in order, with
// the content words before each run and after the last one.
func entityRuns(q string) (runs, between [][]string, tail []string) {
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
		case r == '.' || r == '?' || r == '!' || r == ';' || r == ':' || r == '\n':
			flush(true)
		default:
			flush(false)
		}
	}
	flush(false)
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
	return runs, between, gap
}

// entityKeys are the keys of every entity a text names.
func entityKeys(text string) []string {
	runs, _, _ := entityRuns(text)
	var out []string
	for _, r := range runs {
		if k := textan.StemOf(r[len(r)-1]); !contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// conclusionOf is what an answer concluded about its question: the
// question's own claim when it names two entities; else the question's
// entity with the first entity the answer names besides it ("кто из моих
// друзей мог знать Ельцина" answered "Ваш друг Денис мог знать Бориса
// Ельцина…" concludes Денис · Ельцин), or the answer's first two
// entities when the question names none. Nil when fewer than two are
// found. A denial holds against it, whichever question produced it.
func conclusionOf(query, answer string) *Claim {
	if c := extractClaim(query); c.Usable() {
		return c
	}
	if i := strings.Index(answer, researchedFor); i >= 0 {
		answer = answer[:i] // a relearned summary: the answer, not the question again
	}
	var keys, names []string
	if q := extractClaim(query); q != nil {
		keys, names = q.Entities, []string{q.Subject}
	}
	need := len(keys) + 1
	if len(keys) == 0 {
		need = 2
	}
	runs, _, _ := entityRuns(answer)
	for _, r := range runs {
		k := textan.StemOf(r[len(r)-1])
		if namesAll(keys, []string{k}) {
			continue
		}
		keys, names = append(keys, k), append(names, strings.Join(r, " "))
		if len(keys) == need {
			break
		}
	}
	if len(keys) < 2 {
		return nil
	}
	// The answer's entity is what the question asked for: the subject.
	c := &Claim{Subject: names[0], Object: names[1], Entities: append([]string{}, keys...)}
	if q := extractClaim(query); q != nil {
		c.Subject, c.Object, c.Relation = names[len(names)-1], q.Subject, q.Relation
	}
	sort.Strings(c.Entities)
	return c
}
