package blackbox

// The predicates a clause is read by, and the word rules they lean on:
// relations, roles in the nominative and instrumental, and what counts as
// a name.

import (
	"strings"
	"sync"
	"unicode"

	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// A predicate is what a clause says of its subject. Group 1 of each is an
// optional "теперь"/"now", which makes the value an update.
type predicate struct {
	rule, lang string
	re         *lazyregexp.Regexp
	update     bool // the verb itself says the value changed ("moved to", "стал")
	read       func(m []string) []slotValue
}

type slotValue struct{ slot, value string }

func one(slot string, group int) func([]string) []slotValue {
	return func(m []string) []slotValue { return []slotValue{{slot, strings.TrimSpace(m[group])}} }
}

// predicates are built on first use: every memhook process links this
// package, and only a recall reads clauses.
var predicates = sync.OnceValue(func() []predicate {
	return []predicate{
		{rule: "relation", lang: "ru", re: lazyregexp.New(`^(?:[—–]\s*|-\s+|(?i:это)\s+)?()(?i:` + rePoss + `)\s+(\p{Ll}+(?:\s+\p{Ll}+)?)$`),
			read: func(m []string) []slotValue { return relationValue(m[2], "ru") }},
		{rule: "lives", lang: "ru", re: lazyregexp.New(`^((?i:теперь|сейчас)\s+)?(?i:живёт|живет|живут)\s+((?i:в|во|на)\s+` + rePlace + `)$`), read: one(slotLives, 2)},
		{rule: "lives", lang: "ru", update: true, re: lazyregexp.New(`^((?i:теперь)\s+)?(?i:переехал|переехала|переехали)\s+((?i:в|во|на)\s+` + rePlace + `)$`), read: one(slotLives, 2)},
		{rule: "born", lang: "ru", re: lazyregexp.New(`^()(?i:родился|родилась|родились)\s+((?i:в|во)\s+` + rePlace + `|(?i:в\s+)?\d{4}\s+(?i:году|года|г\.?))$`), read: one(slotBorn, 2)},
		{rule: "works_at", lang: "ru", re: lazyregexp.New(`^((?i:теперь|сейчас)\s+)?(?i:работает|работают)\s+((?i:в|во|на)\s+(?:(?:\p{Ll}+\s+)?` + rePlace + `|\p{Ll}+))$`), read: one(slotWorksAt, 2)},
		{rule: "role", lang: "ru", re: lazyregexp.New(`^((?i:теперь|сейчас)\s+)?(?i:работает|работают)\s+(` + reRole + `)$`), read: instrumentalRole},
		{rule: "role", lang: "ru", update: true, re: lazyregexp.New(`^((?i:теперь)\s+)?(?i:стал|стала|стали)\s+(` + reRole + `)$`), read: instrumentalRole},
		{rule: "role", lang: "ru", re: lazyregexp.New(`^((?i:теперь))\s*(?:[—–]\s*)?(` + reRole + `)$`), read: nominativeRole("ru")},

		{rule: "relation", lang: "en", re: lazyregexp.New(`^(?i:is|'s|,)\s+()(?i:my|our)\s+([a-z]+(?:[ -][a-z]+)?)$`),
			read: func(m []string) []slotValue { return relationValue(m[2], "en") }},
		{rule: "lives", lang: "en", re: lazyregexp.New(`^((?i:now)\s+)?(?i:lives|live|is\s+living|are\s+living)\s+(?i:in)\s+(` + rePlace + `)$`), read: one(slotLives, 2)},
		{rule: "lives", lang: "en", re: lazyregexp.New(`^(?i:is|are)\s+((?i:now)\s+)(?i:living)\s+(?i:in)\s+(` + rePlace + `)$`), read: one(slotLives, 2)},
		{rule: "lives", lang: "en", update: true, re: lazyregexp.New(`^((?i:now)\s+)?(?i:(?:has\s+|have\s+)?moved)\s+(?i:to)\s+(` + rePlace + `)$`), read: one(slotLives, 2)},
		{rule: "born", lang: "en", re: lazyregexp.New(`^()(?i:was|were)\s+(?i:born)\s+(?i:in)\s+(` + rePlace + `|\d{4})$`), read: one(slotBorn, 2)},
		{rule: "role", lang: "en", re: lazyregexp.New(`^((?i:now)\s+)?(?i:works|work|is\s+working)\s+(?i:as)\s+(?:(?i:a|an|the|our)\s+)?(` + reRole + `?)(?:\s+(?i:at|for)\s+((?:(?i:the)\s+)?` + rePlace + `))?$`),
			read: func(m []string) []slotValue {
				out := nominativeRole("en")(m)
				if out != nil && m[3] != "" {
					out = append(out, slotValue{slotWorksAt, strings.TrimSpace(m[3])})
				}
				return out
			}},
		{rule: "works_at", lang: "en", re: lazyregexp.New(`^((?i:now)\s+)?(?i:works|work|is\s+working)\s+(?i:at|for)\s+((?:(?i:the)\s+)?` + rePlace + `)$`), read: one(slotWorksAt, 2)},
		{rule: "role", lang: "en", re: lazyregexp.New(`^(?i:is|are)\s+((?i:now))\s+(?:(?i:a|an|the|our|my)\s+)?(` + reRole + `)$`), read: nominativeRole("en")},
		{rule: "role", lang: "en", update: true, re: lazyregexp.New(`^()(?i:became|has\s+become|is\s+our\s+new|is\s+the\s+new)\s+(?:(?i:a|an|the|our)\s+)?(` + reRole + `)$`), read: nominativeRole("en")},
	}
})

// notRelation are head words after a possessive that name a thing the
// speaker has, not a person's relation to them ("my name is Ann").
var notRelation = map[string]bool{
	"имя": true, "фамилия": true, "отчество": true, "ник": true, "телефон": true, "номер": true, "почта": true, "адрес": true,
	"город": true, "страна": true, "дом": true, "пароль": true, "логин": true, "день": true, "любимый": true, "любимая": true,
	"любимое": true, "любимые": true, "machine": true, "name": true, "surname": true, "nickname": true, "phone": true,
	"number": true, "email": true, "address": true, "city": true, "country": true, "home": true, "password": true,
	"login": true, "birthday": true, "favourite": true, "favorite": true, "first": true, "last": true, "full": true,
	"is": true, "are": true, "was": true, "were": true, "has": true, "have": true,
}

// relPlural are the plural relation words whose singular is not the plural
// minus an ending: a row of a list says "друг", not "друзья".
var relPlural = map[string]string{
	"друзья": "друг", "подруги": "подруга", "сёстры": "сестра", "сестры": "сестра", "братья": "брат",
	"коллеги": "коллега", "соседи": "сосед", "дети": "ребёнок", "сыновья": "сын", "дочери": "дочь",
	"родители": "родитель", "кузены": "кузен", "друзей": "друг", "коллег": "коллега", "сестёр": "сестра",
	"братьев": "брат", "соседей": "сосед", "подруг": "подруга", "детей": "ребёнок",
	"children": "child", "people": "person",
}

// counts are the words that say how many before a relation word.
var counts = map[string]bool{
	"два": true, "две": true, "три": true, "четыре": true, "пять": true, "несколько": true, "много": true,
	"a": true, "an": true, "two": true, "three": true, "four": true, "five": true, "several": true, "some": true, "many": true,
}

// relationValue is the relation a (possibly plural) relation word names,
// as its singular; nil when the head word names a thing, not a relation.
func relationValue(rel, lg string) []slotValue {
	rel = strings.ToLower(strings.TrimSpace(rel))
	ws := strings.Fields(rel)
	if len(ws) > 1 && counts[ws[0]] {
		ws = ws[1:] // "две подруги", "two sisters": the relation is подруга
	}
	if len(ws) == 0 || notRelation[ws[0]] || notRelation[ws[len(ws)-1]] {
		return nil
	}
	last := ws[len(ws)-1]
	if s, ok := relPlural[last]; ok {
		last = s
	} else if lg == "en" && len(last) > 3 && strings.HasSuffix(last, "s") && !strings.HasSuffix(last, "ss") {
		last = strings.TrimSuffix(last, "s")
	}
	ws[len(ws)-1] = last
	return []slotValue{{slotRelation, strings.Join(ws, " ")}}
}

// roleStop are words a role cannot hold: prepositions and negations mean
// the clause says something else ("теперь в отпуске", "is now not here").
var roleStop = map[string]bool{
	"в": true, "во": true, "на": true, "у": true, "с": true, "к": true, "по": true, "за": true, "из": true, "от": true,
	"до": true, "не": true, "ни": true, "уже": true, "очень": true, "дома": true, "тут": true, "здесь": true, "там": true,
	"in": true, "at": true, "on": true, "to": true, "from": true, "with": true, "since": true, "not": true, "no": true,
	"very": true, "so": true, "here": true, "there": true, "home": true, "away": true, "back": true, "also": true,
}

// roleNot are states said the way a role is ("Дима теперь женат", "Ann is
// now busy"): not a role.
var roleNot = map[string]bool{
	"женат": true, "замужем": true, "свободен": true, "свободна": true, "занят": true, "занята": true, "здоров": true,
	"здорова": true, "болен": true, "больна": true, "рад": true, "рада": true, "готов": true, "готова": true, "один": true, "одна": true,
	"married": true, "single": true, "busy": true, "free": true, "happy": true, "sad": true, "ill": true, "sick": true, "well": true,
	"fine": true, "ok": true, "okay": true, "available": true, "online": true, "offline": true, "ready": true, "better": true,
	"alone": true, "late": true, "early": true, "gone": true,
}

// nominativeRole reads a role said in its dictionary form, refusing one
// that reads as a state or a verb.
func nominativeRole(lg string) func(m []string) []slotValue {
	return func(m []string) []slotValue {
		role := strings.TrimSpace(m[2])
		ws := strings.Fields(strings.ToLower(role))
		if len(ws) == 0 || len(ws) > 3 {
			return nil
		}
		for _, w := range ws {
			if roleStop[w] || roleNot[w] {
				return nil
			}
		}
		last := ws[len(ws)-1]
		if lg == "en" && (strings.HasSuffix(last, "ed") || strings.HasSuffix(last, "ing") || strings.HasSuffix(last, "ly")) {
			return nil
		}
		if lg == "ru" && verbLike(last) {
			return nil
		}
		return []slotValue{{slotRole, role}}
	}
}

// verbLike: a Russian word ending the way a finite verb does ("пьёт",
// "учится", "уехал") is not a role.
func verbLike(w string) bool {
	for _, e := range []string{"ет", "ёт", "ит", "ут", "ют", "ят", "ся", "сь", "ал", "ала", "али", "ил", "ила", "или", "ел", "ела", "ели"} {
		if strings.HasSuffix(w, e) {
			return true
		}
	}
	return false
}

// instrumentalRole reads "работает дизайнером", "стал главным инженером":
// the role in the instrumental, put back in the nominative by the regular
// endings (the last word a noun, the ones before it adjectives). A word
// that ends in none of them refuses the clause: a role is not guessed.
func instrumentalRole(m []string) []slotValue {
	ws := strings.Fields(strings.TrimSpace(m[2]))
	if len(ws) == 0 || len(ws) > 3 {
		return nil
	}
	out := make([]string, len(ws))
	for i, w := range ws {
		lw := strings.ToLower(w)
		if roleStop[lw] {
			return nil
		}
		head, tail := "", w
		if j := strings.LastIndex(w, "-"); j > 0 {
			head, tail = w[:j+1], w[j+1:]
		}
		var n string
		var ok bool
		if i == len(ws)-1 {
			n, ok = nounFromInstrumental(tail)
		} else {
			n, ok = adjectiveFromInstrumental(tail)
		}
		if !ok {
			return nil
		}
		out[i] = head + n
	}
	return []slotValue{{slotRole, strings.Join(out, " ")}}
}

func nounFromInstrumental(w string) (string, bool) {
	r := []rune(w)
	if len(r) < 4 {
		return "", false
	}
	stem, end := string(r[:len(r)-2]), strings.ToLower(string(r[len(r)-2:]))
	prev := unicode.ToLower(r[len(r)-3])
	vowel := strings.ContainsRune("аеёиоуыэюя", prev)
	switch end {
	case "ом":
		if !vowel {
			return stem, true // дизайнером → дизайнер
		}
	case "ем", "ём":
		switch {
		case strings.ContainsRune("жшчщц", prev):
			return stem, true // товарищем → товарищ
		case vowel:
			return stem + "й", true // героем → герой
		default:
			return stem + "ь", true // учителем → учитель
		}
	case "ой":
		if !vowel {
			return stem + "а", true // медсестрой → медсестра
		}
	case "ей":
		if !vowel {
			return stem + "я", true // няней → няня
		}
	}
	return "", false
}

func adjectiveFromInstrumental(w string) (string, bool) {
	r := []rune(w)
	if len(r) < 4 {
		return "", false
	}
	stem, end := string(r[:len(r)-2]), strings.ToLower(string(r[len(r)-2:]))
	switch end {
	case "ым":
		return stem + "ый", true // главным → главный
	case "им":
		return stem + "ий", true // старшим → старший
	case "ой":
		return stem + "ая", true // главной → главная
	case "ей":
		return stem + "яя", true // младшей → младшая is irregular; синей → синяя
	}
	return "", false
}

// nonNames are capitalised only because a clause starts with them.
var nonNames = map[string]bool{
	"теперь": true, "сейчас": true, "now": true, "my": true, "our": true, "мой": true, "моя": true, "моё": true, "мое": true,
	"мои": true, "наш": true, "наша": true, "наши": true, "the": true, "this": true, "that": true, "these": true, "there": true,
	"also": true, "yesterday": true, "today": true, "tomorrow": true, "вчера": true, "сегодня": true, "завтра": true,
	"ещё": true, "еще": true, "потом": true, "then": true, "it": true, "we": true, "мы": true, "я": true,
}

// isName checks that every word of a matched name is a name, not a
// capitalised function word or a month.
func isName(s string) bool {
	for _, w := range strings.Fields(s) {
		for _, part := range strings.Split(w, "-") {
			lw := strings.ToLower(part)
			if nonNames[lw] || textan.IsStopWord(lw) || openers[lw] || questionWords[lw] {
				return false
			}
			if _, isMonth := month(lw); isMonth {
				return false
			}
		}
	}
	return true
}
