package blackbox

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// Shaped is one value a shaping rule read out of a remembered phrase.
type Shaped struct {
	Table string
	Kind  string
	Key   string
	Value string
}

// ShapeNote says which rule shaped a remembered phrase into table rows, or
// that none did.
type ShapeNote struct {
	Rule string `json:"rule"` // team_list, friends, contact, contact_list, born, or "none"
	Note string `json:"note"`
}

// Shaping rules. Each reads one phrase shape whose parts can be parsed
// without guessing; a phrase any part of which does not fit is left as a
// text record. Names of tables and kinds come from the rule (in the
// phrase's language, transliterated as every name is), never from the
// phrase's free words.
var (
	reName   = `\p{Lu}\p{Ll}+(?:[ -]\p{Lu}\p{Ll}+)?`
	reNameOK = lazyregexp.New(`^` + reName + `$`)

	ruGroup = lazyregexp.New(`(?i)^\s*(?:у\s+(?:меня|нас)\s+)?в\s+(?:моей\s+|нашей\s+)?(команде|отделе|семье|группе)(?:\s+(?:работают|работает|есть|состоят|состоит))?\s*[:—–]?\s*`)
	enGroup = lazyregexp.New(`(?i)^\s*(?:in\s+)?(?:my|our)\s+(team|department|family|group)(?:\s+(?:has|have|is|are|includes|include))?\s*[:—–,]?\s*`)
	// An item of a group list: Name — role (an em or en dash, a spaced
	// hyphen, or "is the" in English).
	groupItem = lazyregexp.New(`^(` + reName + `)(?:\s*[—–]\s*|\s+-\s+|\s+is\s+(?:the\s+|a\s+|an\s+|our\s+)?)([\p{L}\d+][\p{L}\d\s().+-]*)$`)

	ruFriends = lazyregexp.New(`(?i)^\s*у\s+меня\s+(?:есть\s+)?(друг|друзья|подруга|подруги)\s*[:—–]?\s*`)
	enFriends = lazyregexp.New(`(?i)^\s*(?:i\s+have\s+(?:a\s+)?friends?|my\s+friends\s+are|my\s+friend\s+is)\s*[:—–]?\s*`)

	enContactOf = lazyregexp.New(`^(?i:(?:the\s+)?(phone(?:\s+number)?|email|e-mail)\s+of\s+)(` + reName + `)(?i:\s+is\s+|\s*[:—–]\s*)(.+?)\.?\s*$`)
	enContactS  = lazyregexp.New(`^(` + reName + `)(?i:'s\s+(phone(?:\s+number)?|email|e-mail)(?:\s+is\s+|\s*[:—–]\s*))(.+?)\.?\s*$`)
	ruContactOf = lazyregexp.New(`^(?i:(?:номер\s+)?(телефона?|почта|email|e-mail)\s+(?:у\s+)?)(\p{Lu}\p{Ll}+)(?:\s*[:—–]\s*|\s+(?i:это\s+)?)(.+?)\.?\s*$`)
	ruContactU  = lazyregexp.New(`^(?i:у\s+)(\p{Lu}\p{Ll}+)(?i:\s+(?:номер\s+)?(телефон|почта|email|e-mail))(?:\s*[:—–]\s*|\s+)(.+?)\.?\s*$`)

	ruPhones = lazyregexp.New(`(?i)^\s*(?:номера\s+)?телефон(?:ы|ов)(?:\s+(?:моих\s+|наших\s+)?(?:друзей|коллег|контактов))?\s*[:—–]\s*`)
	enPhones = lazyregexp.New(`(?i)^\s*(?:the\s+)?phone(?:\s+number)?s(?:\s+of\s+(?:my\s+|our\s+)?(?:friends|colleagues|contacts))?\s*[:—–]\s*`)

	enBorn = lazyregexp.New(`^(` + reName + `)(?i:\s+was\s+born\s+in\s+)(.+?)\.?\s*$`)
	ruBorn = lazyregexp.New(`^(` + reName + `)\s+(?i:родил(?:ся|ась))\s+(в\s+.+?|\d{4}\s+года?)\.?\s*$`)

	phoneValue = lazyregexp.New(`^\+?\d[\d\s().-]{2,30}$`)
	emailValue = lazyregexp.New(`^[^\s@]+@[^\s@]+\.[^\s@]+$`)
)

var groupTables = map[string]string{
	"команде": "команда", "отделе": "отдел", "семье": "семья", "группе": "группа",
	"team": "team", "department": "department", "family": "family", "group": "group",
}

// shape reads a phrase by the rules; keyOf maps a Russian name in the
// genitive to the row key (an existing key of the table when one has the
// same stem). It returns the rule and the values, or "" when no rule reads
// the whole phrase.
func shape(text string, keyOf func(table, genitive string) string) (string, []Shaped) {
	text = strings.TrimSpace(text)
	if strings.ContainsAny(text, "\n\r") || len([]rune(text)) > 400 {
		return "", nil
	}
	if loc := ruGroup.FindStringSubmatchIndex(text); loc != nil {
		table := groupTables[strings.ToLower(text[loc[2]:loc[3]])]
		if vs := groupList(text[loc[1]:], table, "роль", `,|;|\s+и\s+`, 4); vs != nil {
			return "team_list", vs
		}
		return "", nil
	}
	if loc := enGroup.FindStringSubmatchIndex(text); loc != nil {
		table := groupTables[strings.ToLower(text[loc[2]:loc[3]])]
		if vs := groupList(text[loc[1]:], table, "role", `,|;|\s+and\s+`, 4); vs != nil {
			return "team_list", vs
		}
		return "", nil
	}
	if loc := ruFriends.FindStringIndex(text); loc != nil {
		if vs := nameList(text[loc[1]:], `,|\s+и\s+`, "контакты", "отношение", "друг"); vs != nil {
			return "friends", vs
		}
		return "", nil
	}
	if loc := enFriends.FindStringIndex(text); loc != nil {
		if vs := nameList(text[loc[1]:], `,|\s+and\s+`, "contacts", "relation", "friend"); vs != nil {
			return "friends", vs
		}
		return "", nil
	}
	for _, p := range []struct {
		re               *lazyregexp.Regexp
		table, kind, sep string
	}{{ruPhones, "контакты", "телефон", `,|;|\s+и\s+`}, {enPhones, "contacts", "phone", `,|;|\s+and\s+`}} {
		if loc := p.re.FindStringIndex(text); loc != nil {
			vs := groupList(text[loc[1]:], p.table, p.kind, p.sep, 0)
			for _, v := range vs {
				if !phoneValue.MatchString(v.Value) {
					return "", nil
				}
			}
			if vs == nil {
				return "", nil
			}
			return "contact_list", vs
		}
	}
	if m := enContactOf.FindStringSubmatch(text); m != nil {
		return contact("contacts", m[1], m[2], m[3])
	}
	if m := enContactS.FindStringSubmatch(text); m != nil {
		return contact("contacts", m[2], m[1], m[3])
	}
	for _, re := range []*lazyregexp.Regexp{ruContactOf, ruContactU} {
		if m := re.FindStringSubmatch(text); m != nil {
			kindWord, name, value := m[1], m[2], m[3]
			if re == ruContactU {
				kindWord, name = m[2], m[1]
			}
			return contact("контакты", kindWord, keyOf("контакты", name), value)
		}
	}
	if m := enBorn.FindStringSubmatch(text); m != nil {
		return "born", []Shaped{{Table: "contacts", Kind: "born", Key: m[1], Value: m[2]}}
	}
	if m := ruBorn.FindStringSubmatch(text); m != nil {
		return "born", []Shaped{{Table: "контакты", Kind: "родился", Key: m[1], Value: m[2]}}
	}
	return "", nil
}

func groupList(rest, table, kind, sep string, maxWords int) []Shaped {
	rest = strings.TrimRight(strings.TrimSpace(rest), ".!")
	var out []Shaped
	for _, part := range regexp.MustCompile(sep).Split(rest, -1) {
		m := groupItem.FindStringSubmatch(strings.TrimSpace(part))
		if m == nil {
			return nil
		}
		role := strings.TrimSpace(m[2])
		if maxWords > 0 && len(strings.Fields(role)) > maxWords {
			return nil
		}
		out = append(out, Shaped{Table: table, Kind: kind, Key: m[1], Value: role})
	}
	return out
}

func nameList(rest, sep, table, kind, value string) []Shaped {
	rest = strings.TrimRight(strings.TrimSpace(rest), ".!")
	var out []Shaped
	for _, part := range regexp.MustCompile(sep).Split(rest, -1) {
		name := strings.TrimSpace(part)
		if !reNameOK.MatchString(name) {
			return nil
		}
		out = append(out, Shaped{Table: table, Kind: kind, Key: name, Value: value})
	}
	return out
}

func contact(table, kindWord, key, value string) (string, []Shaped) {
	kw := strings.ToLower(kindWord)
	value = strings.TrimSpace(value)
	var kind string
	switch {
	case strings.HasPrefix(kw, "phone"):
		kind = "phone"
	case strings.HasPrefix(kw, "телефон"):
		kind = "телефон"
	case strings.Contains(kw, "mail") && table == "contacts":
		kind = "email"
	default:
		kind = "почта"
	}
	isPhone := kind == "phone" || kind == "телефон"
	if isPhone && !phoneValue.MatchString(value) || !isPhone && !emailValue.MatchString(value) || key == "" {
		return "", nil
	}
	return "contact", []Shaped{{Table: table, Kind: kind, Key: key, Value: value}}
}

// nominative turns a Russian first name in the genitive (as after
// "телефон" or "у") into the nominative by the regular endings; a name
// whose ending is none of them is kept as written (indeclinable).
func nominative(g string) string {
	r := []rune(g)
	if len(r) < 3 {
		return g
	}
	last, prev := unicode.ToLower(r[len(r)-1]), unicode.ToLower(r[len(r)-2])
	stem := string(r[:len(r)-1])
	vowel := strings.ContainsRune("аеёиоуыэюя", prev)
	switch last {
	case 'ы':
		return stem + "а"
	case 'и':
		if strings.ContainsRune("гкхжшчщ", prev) {
			return stem + "а"
		}
		return stem + "я"
	case 'а':
		if !vowel && prev != 'ь' && prev != 'й' {
			return stem // Дениса → Денис
		}
	case 'я':
		if vowel {
			return stem + "й" // Андрея → Андрей
		}
		if prev != 'ь' {
			return stem + "ь" // Игоря → Игорь
		}
	}
	return g
}

// sameStem reports whether two Russian words share a Snowball stem.
func sameStem(a, b string) bool {
	return textan.StemOf(a) == textan.StemOf(b)
}
