package blackbox

import (
	"strings"
	"unicode"

	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
)

// The shaping grammar. Remember reads a phrase into units of meaning: who
// someone is to the speaker (a relation: "моя сестра Оля", "Ann is my
// manager"), what is true of them (an attribute: where they live, what
// they work as, where they work, where they were born, their phone or
// email), and who belongs to a group ("в команде работают …"). The phrase
// is cut into clauses at commas, semicolons, sentence ends and the
// conjunctions и / а / and / but (an appositive, "Dima, my manager, lives
// …", read first as "my manager Dima lives …"); each clause is read by the
// first rule that reads all of it, a pronoun or a clause without a subject
// takes the previous clause's people, and a bare name or "Name — role"
// after a list opener (which may say how many: "в отделе трое: …")
// continues the list, as does another relation in a relation list ("… и
// сестра Ира"). A clause no rule reads stays in the record
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
	// A count after a group ("в отделе трое: …", "our family has three
	// people: …"): it says how many, the names follow.
	reCountRU = `(?:\s+(?:нас\s+)?(?:двое|трое|четверо|пятеро|шестеро|семеро|два|две|три|четыре|пять|шесть|семь|\d+)(?:\s+(?:человека|человек|новых|новеньких|сотрудника|сотрудников|участника|участников))?)?`
	reCountEN = `(?:\s+(?:two|three|four|five|six|seven|eight|\d+)(?:\s+(?:new\s+)?(?:people|persons|members|of\s+us))?)?`
	reLead    = `(?:(?i:теперь|сейчас|now)\s+)?`
)

var (
	segSplit = lazyregexp.New(`\s*(?:[,;]|[.!?](?:\s+|$))\s*(?:(?i:и|а|но|and|but)\s+)?|\s+(?i:и|а|но|and|but)\s+`)

	rxPronoun = lazyregexp.New(`^(?i:(он|она|оно|они|he|she|they))(?:\s+(.*))?$`)
	rxName    = lazyregexp.New(`^(` + reName + `)(?:\s+(.*))?$`)
	rxRelRU   = lazyregexp.New(`^(?i:` + rePoss + `)\s+(\p{Ll}+(?:\s+\p{Ll}+)?)\s*(?:[—–]\s*|-\s+)?(` + reName + `)(?:\s+(.*))?$`)
	rxRelEN   = lazyregexp.New(`^(?i:my|our)\s+([a-z]+(?:[ -][a-z]+)?)\s*,?\s+(` + reName + `),?(?:\s+(.*))?$`)
	rxRelIsEN = lazyregexp.New(`^(?i:my|our)\s+([a-z]+(?:[ -][a-z]+)?)\s+(?i:is|'s)\s+(` + reName + `)$`)
	rxLeadUpd = lazyregexp.New(`^(?i:теперь|сейчас|now),?\s+(.*)$`)

	rxGroupRU = lazyregexp.New(`(?i)^(?:у\s+(?:меня|нас)\s+)?в\s+(?:моей\s+|нашей\s+|моём\s+|моем\s+|нашем\s+)?(команде|отделе|семье|группе)(?:\s+(?:работают|работает|есть|состоят|состоит))?` + reCountRU + `\s*[:—–]?\s*(.+)$`)
	rxGroupEN = lazyregexp.New(`(?i)^(?:in\s+)?(?:my|our|the)\s+(team|department|family|group)(?:\s+(?:has|have|is|are|includes|include))?` + reCountEN + `\s*[:—–,]?\s*(.+)$`)
	// A relation said inside a relation list: "… и сестра Ира", "… and a
	// brother Max".
	rxRelItem = lazyregexp.New(`^(?:(?i:a|an|my|our|мой|моя|моё|мое)\s+)?(\p{Ll}+)\s*(?:[—–]\s*|-\s+)?(` + reName + `)$`)
	// An appositive: "Dima, my manager, lives …" reads as "my manager Dima
	// lives …".
	rxAppos = lazyregexp.New(`(^|[;.!?]\s+|\s(?i:и|а|но|and|but)\s+)(` + reName + `),\s+((?i:my|our|мой|моя|моё|мое|наш|наша|наше)\s+\p{Ll}+(?:\s+\p{Ll}+)?),\s+`)
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
	text = rxAppos.ReplaceAllStringFunc(text, func(m string) string {
		p := rxAppos.FindStringSubmatch(m)
		head := strings.Fields(p[3])
		if !isName(p[2]) || relationValue(strings.Join(head[1:], " "), "") == nil {
			return m
		}
		return p[1] + p[3] + " " + p[2] + " "
	})
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
	if m == nil && l.relation != "" {
		// Another relation of the same list: "… и сестра Ира".
		r := rxRelItem.FindStringSubmatch(seg)
		if r == nil || !isName(r[2]) {
			return false
		}
		rv := relationValue(r[1], l.lang)
		if rv == nil {
			return false
		}
		l.relation = rv[0].value
		g.add("relation", l.lang, slotRelation, langs[l.lang].people, r[2], l.relation, false)
		g.last, g.lastLg = []string{r[2]}, l.lang
		return true
	}
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
	for _, p := range predicates() {
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
