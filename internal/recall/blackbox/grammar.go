package blackbox

import (
	"strings"
	"unicode"

	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// The shaping grammar. Remember reads a phrase into units of meaning: who
// someone is to the speaker (a relation: "моя сестра Оля", "Ann is my
// manager"), what is true of them (an attribute: where they live, what
// they work as, where they work, where they were born, their phone or
// email), and who belongs to a group ("в команде работают …"). The phrase
// is cut into clauses at commas, semicolons, sentence ends and the
// conjunctions и / а / and / but; each clause is read by the first rule
// that reads all of it, a pronoun or a clause without a subject takes the
// previous clause's people, and a bare name or "Name — role" after a list
// opener continues the list. A clause no rule reads stays in the record
// only (listed in the answer as unread), and so does everything after it
// that would need it as an antecedent. Names of tables and kinds come from
// the rules, in the clause's language, never from the phrase's free words.

// Slots are what a unit says, whatever the language it was said in.
const (
	slotRelation = "relation" // who the person is to the speaker
	slotLives    = "lives"
	slotRole     = "role"
	slotWorksAt  = "works_at"
	slotBorn     = "born"
	slotPhone    = "phone"
	slotEmail    = "email"
	slotMember   = "member" // belongs to a group, no role said
)

// A language's names: the people table and the kind of each slot.
type lang struct {
	people string
	kinds  map[string]string
	member string // the value of a member row without a role
}

var langs = map[string]lang{
	"ru": {people: "контакты", member: "да", kinds: map[string]string{slotRelation: "отношение", slotLives: "живёт", slotRole: "роль",
		slotWorksAt: "работает", slotBorn: "родился", slotPhone: "телефон", slotEmail: "почта", slotMember: "участник"}},
	"en": {people: "contacts", member: "yes", kinds: map[string]string{slotRelation: "relation", slotLives: "lives", slotRole: "role",
		slotWorksAt: "works_at", slotBorn: "born", slotPhone: "phone", slotEmail: "email", slotMember: "member"}},
}

// slotOfKind maps a kind's normalised name back to its slot, in either
// language, so that a later phrase updates the value an earlier one wrote.
var slotOfKind = map[string]string{
	"otnoshenie": slotRelation, "relation": slotRelation, "zhivet": slotLives, "lives": slotLives,
	"rol": slotRole, "role": slotRole, "rabotaet": slotWorksAt, "works_at": slotWorksAt,
	"rodilsya": slotBorn, "born": slotBorn, "telefon": slotPhone, "phone": slotPhone,
	"pochta": slotEmail, "email": slotEmail, "uchastnik": slotMember, "member": slotMember,
}

var groupTables = map[string]string{
	"команде": "команда", "отделе": "отдел", "семье": "семья", "группе": "группа",
	"team": "team", "department": "department", "family": "family", "group": "group",
}

// Shaped is one unit a rule read: a value for a key, in the table and kind
// the rule names (the people table, or the group's), before the key's
// existing rows redirect it.
type Shaped struct {
	Rule  string
	Slot  string
	Table string
	Kind  string
	Key   string
	Value string
	// Update: the phrase says the value changed ("теперь", "now", "moved
	// to"), so an earlier value is replaced rather than kept beside it.
	Update bool
	// Genitive: Key is a Russian name in an oblique case ("телефон Димы"),
	// matched to an existing key by its stem.
	Genitive bool
}

const (
	reWord = `\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?`
	reName = reWord + `(?:\s+` + reWord + `)?`
	// A place or an organisation: capitalised words, with the small
	// lower-case joiners of place names between them.
	rePlace = `\p{Lu}[\p{L}'’.-]*(?:\s+(?:(?:de|da|do|del|la|le|of|upon|am|an|на)\s+)?\p{Lu}[\p{L}'’.-]*){0,3}`
	reRole  = `[\p{L}][\p{L}'’-]*(?:\s+[\p{L}][\p{L}'’-]*){0,3}`
	rePoss  = `(?:мой|моя|моё|мое|мои|наш|наша|наше|наши)`
	reLead  = `(?:(?i:теперь|сейчас|now)\s+)?`
)

var (
	segSplit = lazyregexp.New(`\s*(?:[,;]|[.!?](?:\s+|$))\s*(?:(?i:и|а|но|and|but)\s+)?|\s+(?i:и|а|но|and|but)\s+`)

	rxPronoun = lazyregexp.New(`^(?i:(он|она|оно|они|he|she|they))(?:\s+(.*))?$`)
	rxName    = lazyregexp.New(`^(` + reName + `)(?:\s+(.*))?$`)
	rxRelRU   = lazyregexp.New(`^(?i:` + rePoss + `)\s+(\p{Ll}+(?:\s+\p{Ll}+)?)\s*(?:[—–]\s*|-\s+)?(` + reName + `)(?:\s+(.*))?$`)
	rxRelEN   = lazyregexp.New(`^(?i:my|our)\s+([a-z]+(?:[ -][a-z]+)?)\s*,?\s+(` + reName + `),?(?:\s+(.*))?$`)
	rxRelIsEN = lazyregexp.New(`^(?i:my|our)\s+([a-z]+(?:[ -][a-z]+)?)\s+(?i:is|'s)\s+(` + reName + `)$`)
	rxLeadUpd = lazyregexp.New(`^(?i:теперь|сейчас|now),?\s+(.*)$`)

	rxGroupRU = lazyregexp.New(`(?i)^(?:у\s+(?:меня|нас)\s+)?в\s+(?:моей\s+|нашей\s+)?(команде|отделе|семье|группе)(?:\s+(?:работают|работает|есть|состоят|состоит))?\s*[:—–]?\s*(.+)$`)
	rxGroupEN = lazyregexp.New(`(?i)^(?:in\s+)?(?:my|our)\s+(team|department|family|group)(?:\s+(?:has|have|is|are|includes|include))?\s*[:—–,]?\s*(.+)$`)
	// A list item: Name — role (an em or en dash, a spaced hyphen, or
	// English "is the"), or a bare name.
	rxItem = lazyregexp.New(`^(` + reName + `)(?:(?:\s*[—–]\s*|\s+-\s+|\s+is\s+(?:the\s+|a\s+|an\s+|our\s+)?)([\p{L}\d+][\p{L}\d\s().+-]*))?$`)

	rxRelListRU = lazyregexp.New(`^(?i:у\s+(?:меня|нас)\s+(?:есть\s+)?)(\p{Ll}+(?:\s+\p{Ll}+)?)\s*(?:[:—–]\s*|-\s+)?(` + reName + `)$`)
	rxRelListEN = lazyregexp.New(`^(?i:i\s+have\s+(?:a\s+|an\s+|two\s+|three\s+|four\s+|some\s+|many\s+)?)([a-z]+(?:[ -][a-z]+)?)\s*[:—–]?\s*(` + reName + `)$`)
	rxPluralEN  = lazyregexp.New(`^(?i:(?:my|our)\s+)?([a-z]+s)\s*(?:[:—–]\s*|\s+are\s+)?(` + reName + `)$`)

	rxPhonesRU = lazyregexp.New(`(?i)^(?:номера\s+)?телефон(?:ы|ов)(?:\s+(?:моих\s+|наших\s+)?(?:друзей|коллег|контактов))?\s*[:—–]\s*(.+)$`)
	rxPhonesEN = lazyregexp.New(`(?i)^(?:the\s+)?phone(?:\s+number)?s(?:\s+of\s+(?:my\s+|our\s+)?(?:friends|colleagues|contacts))?\s*[:—–]\s*(.+)$`)

	rxContactOfEN = lazyregexp.New(`^(?i:(?:the\s+)?(phone(?:\s+number)?|email|e-mail)\s+of\s+)(` + reName + `)(?i:\s+is\s+|\s*[:—–]\s*)(.+?)$`)
	rxContactSEN  = lazyregexp.New(`^(` + reName + `)(?i:'s\s+(phone(?:\s+number)?|email|e-mail)(?:\s+is\s+|\s*[:—–]\s*))(.+?)$`)
	rxContactPEN  = lazyregexp.New(`^(?i:(his|her|their)\s+(phone(?:\s+number)?|email|e-mail)(?:\s+is\s+|\s*[:—–]\s*))(.+?)$`)
	rxContactOfRU = lazyregexp.New(`^(?i:(?:номер\s+)?(телефона?|почта|email|e-mail)\s+(?:у\s+)?)(\p{Lu}\p{Ll}+)(?:\s*[:—–]\s*|\s+(?i:это\s+)?)(.+?)$`)
	rxContactURU  = lazyregexp.New(`^(?i:у\s+)(\p{Lu}\p{Ll}+)(?i:\s+(?:номер\s+)?(телефон|почта|email|e-mail))(?:\s*[:—–]\s*|\s+)(.+?)$`)
	rxContactPRU  = lazyregexp.New(`^(?i:(его|её|ее|их)\s+(?:номер\s+)?(телефон|почта|email|e-mail))(?:\s*[:—–]\s*|\s+)(.+?)$`)
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

var predicates = []predicate{
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

// relationValue is the relation a (possibly plural) relation word names,
// as its singular; nil when the head word names a thing, not a relation.
func relationValue(rel, lg string) []slotValue {
	rel = strings.ToLower(strings.TrimSpace(rel))
	ws := strings.Fields(rel)
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

// grammar is one reading of a phrase in progress.
type grammar struct {
	units  []Shaped
	unread []string
	last   []string // the people of the previous clause read: a pronoun's antecedents
	lastLg string
	list   *listCtx
}

// listCtx is an open list: a bare name or "Name — value" continues it.
type listCtx struct {
	rule, lang, table string
	relation          string // a relation list: the relation every name gets
	phones            bool   // a contact list: every item's value is a phone
	roleKind          bool   // a group list: items may carry a role
}

// shape reads a phrase into units; unread are the clauses no rule read
// (kept in the record only). A phrase over several lines or longer than
// 600 characters is a document, not a statement, and is not read.
func shape(text string) (units []Shaped, unread []string) {
	text = strings.TrimSpace(text)
	if text == "" || strings.ContainsAny(text, "\n\r") || len([]rune(text)) > 600 {
		return nil, nil
	}
	text = strings.TrimRight(text, ".!?… ")
	g := &grammar{}
	for _, seg := range segSplit.Split(text, -1) {
		seg = strings.TrimSpace(seg)
		if seg == "" {
			continue
		}
		if !g.segment(seg) {
			g.unread = append(g.unread, seg)
			g.last, g.list = nil, nil
		}
	}
	return g.units, g.unread
}

func (g *grammar) add(rule, lg, slot, table, key, value string, update bool) {
	g.units = append(g.units, Shaped{Rule: rule, Slot: slot, Table: table, Kind: langs[lg].kinds[slot], Key: key, Value: value, Update: update})
}

func (g *grammar) segment(seg string) bool {
	if g.list != nil && g.listItem(seg) {
		return true
	}
	g.list = nil
	for _, read := range []func(string) bool{g.opener, g.contact, g.relationIs, g.clause} {
		if read(seg) {
			return true
		}
	}
	return false
}

// listItem continues an open list with one item.
func (g *grammar) listItem(seg string) bool {
	l := g.list
	m := rxItem.FindStringSubmatch(seg)
	if m == nil || !isName(m[1]) {
		return false
	}
	name, value := m[1], strings.TrimSpace(m[2])
	switch {
	case l.phones:
		if value == "" || !phoneValue.MatchString(value) {
			return false
		}
		g.add(l.rule, l.lang, slotPhone, langs[l.lang].people, name, value, false)
	case l.relation != "":
		if value != "" {
			return false
		}
		g.add(l.rule, l.lang, slotRelation, langs[l.lang].people, name, l.relation, false)
	case l.roleKind:
		if value == "" {
			g.add(l.rule, l.lang, slotMember, l.table, name, langs[l.lang].member, false)
		} else {
			if len(strings.Fields(value)) > 4 {
				return false
			}
			g.add(l.rule, l.lang, slotRole, l.table, name, value, false)
		}
	default:
		return false
	}
	g.last, g.lastLg = []string{name}, l.lang
	return true
}

// opener reads the head of a list: a group ("в команде работает …", "my
// team: …"), a relation shared by several people ("у меня есть друг Дима
// и Миша", "friends Dima and Misha"), or a list of phones.
func (g *grammar) opener(seg string) bool {
	try := func(l *listCtx, first string) bool {
		g.list = l
		if g.listItem(strings.TrimSpace(first)) {
			return true
		}
		g.list = nil
		return false
	}
	if m := rxGroupRU.FindStringSubmatch(seg); m != nil {
		return try(&listCtx{rule: "team_list", lang: "ru", table: groupTables[strings.ToLower(m[1])], roleKind: true}, m[2])
	}
	if m := rxGroupEN.FindStringSubmatch(seg); m != nil {
		return try(&listCtx{rule: "team_list", lang: "en", table: groupTables[strings.ToLower(m[1])], roleKind: true}, m[2])
	}
	if m := rxPhonesRU.FindStringSubmatch(seg); m != nil {
		return try(&listCtx{rule: "contact_list", lang: "ru", phones: true}, m[1])
	}
	if m := rxPhonesEN.FindStringSubmatch(seg); m != nil {
		return try(&listCtx{rule: "contact_list", lang: "en", phones: true}, m[1])
	}
	for _, p := range []struct {
		re *lazyregexp.Regexp
		lg string
	}{{rxRelListRU, "ru"}, {rxRelListEN, "en"}, {rxPluralEN, "en"}} {
		if m := p.re.FindStringSubmatch(seg); m != nil {
			if rv := relationValue(m[1], p.lg); rv != nil && isName(m[2]) {
				return try(&listCtx{rule: "relation_list", lang: p.lg, relation: rv[0].value}, m[2])
			}
		}
	}
	return false
}

// contact reads a phone or an email said of a named person or a pronoun.
func (g *grammar) contact(seg string) bool {
	put := func(lg, kindWord, key, value string, genitive bool) bool {
		kw := strings.ToLower(kindWord)
		slot := slotEmail
		if strings.HasPrefix(kw, "phone") || strings.HasPrefix(kw, "телефон") {
			slot = slotPhone
		}
		value = strings.TrimSpace(value)
		if slot == slotPhone && !phoneValue.MatchString(value) || slot == slotEmail && !emailValue.MatchString(value) || key == "" {
			return false
		}
		g.units = append(g.units, Shaped{Rule: "contact", Slot: slot, Table: langs[lg].people, Kind: langs[lg].kinds[slot], Key: key, Value: value, Genitive: genitive})
		g.last, g.lastLg = []string{key}, lg
		return true
	}
	if m := rxContactOfEN.FindStringSubmatch(seg); m != nil && isName(m[2]) {
		return put("en", m[1], m[2], m[3], false)
	}
	if m := rxContactSEN.FindStringSubmatch(seg); m != nil && isName(m[1]) {
		return put("en", m[2], m[1], m[3], false)
	}
	if m := rxContactOfRU.FindStringSubmatch(seg); m != nil && isName(m[2]) {
		return put("ru", m[1], m[2], m[3], true)
	}
	if m := rxContactURU.FindStringSubmatch(seg); m != nil && isName(m[1]) {
		return put("ru", m[2], m[1], m[3], true)
	}
	for _, p := range []struct {
		re *lazyregexp.Regexp
		lg string
	}{{rxContactPEN, "en"}, {rxContactPRU, "ru"}} {
		if m := p.re.FindStringSubmatch(seg); m != nil && len(g.last) == 1 {
			return put(p.lg, m[2], g.last[0], m[3], false)
		}
	}
	return false
}

// relationIs reads "my manager is Ann".
func (g *grammar) relationIs(seg string) bool {
	m := rxRelIsEN.FindStringSubmatch(seg)
	if m == nil || !isName(m[2]) {
		return false
	}
	rv := relationValue(m[1], "en")
	if rv == nil {
		return false
	}
	g.add("relation", "en", slotRelation, langs["en"].people, m[2], rv[0].value, false)
	g.last, g.lastLg = []string{m[2]}, "en"
	return true
}

// clause reads subject + predicate: the subject a relation phrase ("моя
// сестра Оля", "my sister Olya"), a pronoun, a name, or — when the clause
// starts with its verb — the previous clause's people.
func (g *grammar) clause(seg string) bool {
	update := false
	if m := rxLeadUpd.FindStringSubmatch(seg); m != nil {
		update, seg = true, m[1]
	}
	var keys []string
	var pre []Shaped // the subject phrase's own unit (a relation)
	rest, lg := "", ""
	plural := false // the subject's relation word is plural: a list may follow
	switch {
	case rxRelRU.MatchString(seg):
		m := rxRelRU.FindStringSubmatch(seg)
		rv := relationValue(m[1], "ru")
		if rv == nil || !isName(m[2]) {
			return false
		}
		keys, rest, lg = []string{m[2]}, m[3], "ru"
		plural = strings.HasPrefix(strings.ToLower(seg), "мои") || strings.HasPrefix(strings.ToLower(seg), "наши") || rv[0].value != strings.ToLower(m[1])
		pre = append(pre, Shaped{Rule: "relation", Slot: slotRelation, Table: langs["ru"].people, Kind: langs["ru"].kinds[slotRelation], Key: m[2], Value: rv[0].value})
	case rxRelEN.MatchString(seg):
		m := rxRelEN.FindStringSubmatch(seg)
		rv := relationValue(m[1], "en")
		if rv == nil || !isName(m[2]) {
			return false
		}
		keys, rest, lg = []string{m[2]}, m[3], "en"
		plural = rv[0].value != strings.ToLower(m[1])
		pre = append(pre, Shaped{Rule: "relation", Slot: slotRelation, Table: langs["en"].people, Kind: langs["en"].kinds[slotRelation], Key: m[2], Value: rv[0].value})
	case rxPronoun.MatchString(seg):
		m := rxPronoun.FindStringSubmatch(seg)
		plural := map[string]bool{"они": true, "they": true}[strings.ToLower(m[1])]
		if len(g.last) == 0 || !plural && len(g.last) != 1 {
			return false
		}
		keys, rest = g.last, m[2]
	case rxName.MatchString(seg) && isName(rxName.FindStringSubmatch(seg)[1]):
		m := rxName.FindStringSubmatch(seg)
		keys, rest = []string{m[1]}, m[2]
	default:
		if len(g.last) == 0 {
			return false
		}
		keys, rest = g.last, seg
	}
	rest = strings.TrimSpace(rest)
	if rest == "" {
		if len(pre) == 0 {
			return false
		}
		g.units = append(g.units, pre...)
		g.last, g.lastLg = keys, lg
		if plural {
			// "мои друзья — Дима и Миша": the names after it share the relation.
			g.list = &listCtx{rule: "relation_list", lang: lg, relation: pre[0].Value}
		}
		return true
	}
	// After a leading "теперь", the bare role: "Теперь Дима тимлид".
	if update && (lg == "" || lg == "ru") && !strings.ContainsAny(rest, " ") && isCyrillic(rest) {
		if sv := nominativeRole("ru")([]string{"", "", rest}); sv != nil {
			g.emit(pre, keys, "role", "ru", sv, true)
			return true
		}
	}
	for _, p := range predicates {
		if lg != "" && p.lang != lg && p.rule != "relation" {
			continue
		}
		m := p.re.FindStringSubmatch(rest)
		if m == nil {
			continue
		}
		sv := p.read(m)
		if sv == nil {
			continue
		}
		g.emit(pre, keys, p.rule, p.lang, sv, update || p.update || strings.TrimSpace(m[1]) != "")
		return true
	}
	// The subject phrase said who someone is even when the rest of the
	// clause is not read: "мой друг Денис служил в Кремле" keeps Denis a
	// friend, and the service stays in the record.
	if len(pre) > 0 {
		g.units = append(g.units, pre...)
		g.unread = append(g.unread, rest)
		g.last, g.lastLg = nil, ""
		return true
	}
	return false
}

func (g *grammar) emit(pre []Shaped, keys []string, rule, lg string, sv []slotValue, update bool) {
	g.units = append(g.units, pre...)
	for _, k := range keys {
		for _, s := range sv {
			if s.value == "" {
				continue
			}
			g.add(rule, lg, s.slot, langs[lg].people, k, s.value, update && s.slot != slotRelation)
		}
	}
	g.last, g.lastLg = keys, lg
}

func isCyrillic(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Cyrillic, r) {
			return true
		}
	}
	return false
}
