package blackbox

import (
	"sync"

	"github.com/cerebro-mem/cerebro/internal/recall/tables"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// The words of the tables memory shapes by itself, in both languages, so
// that a statement in either language goes to the one table of its kind
// and a question in either language finds it: "where does Петя live"
// reads kontakty.zhivet, "кто мои друзья" reads contacts.relation.

// groupOfTable names the kind of thing each shaped table holds, by its
// normalised name in either language: the people, or one group.
var groupOfTable = map[string]string{
	"kontakty": "people", "contacts": "people",
	"komanda": "team", "team": "team",
	"otdel": "department", "department": "department",
	"semya": "family", "family": "family",
	"gruppa": "group", "group": "group",
}

// ruTables are the shaped tables named in Russian: a kind made in one of
// them is named in Russian too.
var ruTables = map[string]bool{"kontakty": true, "komanda": true, "otdel": true, "semya": true, "gruppa": true}

func tableLang(name string) string {
	if ruTables[name] {
		return "ru"
	}
	return "en"
}

// slotWords are the stems a question names a slot by, in either language
// ("where does Петя live", "где живёт Петя", "какая роль у Юли").
var slotWords = sync.OnceValue(func() map[string]string {
	return stemSet(map[string][]string{
		slotLives:    {"live", "lives", "living", "reside", "живёт", "живет", "живут", "жить", "проживает", "живёшь"},
		slotRole:     {"role", "position", "job", "title", "роль", "должность", "позиция"},
		slotWorksAt:  {"work", "works", "working", "employer", "company", "работает", "работают", "работа", "компания"},
		slotBorn:     {"born", "birthplace", "родился", "родилась", "родились", "родом"},
		slotPhone:    {"phone", "number", "call", "телефон", "номер", "позвонить"},
		slotEmail:    {"email", "mail", "почта", "почту", "email"},
		slotRelation: {"relation", "отношение"},
		slotMember:   {"member", "members", "участник", "участники"},
	})
})

// relationWords pairs the relation words of the two languages by one
// name, so "my friends" meets the rows of друг and "моя сестра" those of
// sister. A relation no pair names meets only its own language's stem.
var relationWords = sync.OnceValue(func() map[string]string {
	return stemSet(map[string][]string{
		"friend":    {"friend", "друг", "подруга", "приятель", "приятельница"},
		"sister":    {"sister", "сестра"},
		"brother":   {"brother", "брат"},
		"wife":      {"wife", "жена"},
		"husband":   {"husband", "муж"},
		"son":       {"son", "сын"},
		"daughter":  {"daughter", "дочь", "дочка"},
		"mother":    {"mother", "mom", "mum", "мама", "мать"},
		"father":    {"father", "dad", "папа", "отец"},
		"colleague": {"colleague", "коллега"},
		"neighbour": {"neighbour", "neighbor", "сосед", "соседка"},
		"manager":   {"manager", "boss", "начальник", "начальница", "руководитель", "менеджер"},
		"child":     {"child", "kid", "ребёнок", "ребенок"},
		"parent":    {"parent", "родитель"},
		"cousin":    {"cousin", "кузен", "кузина"},
	})
})

// groupWordsOf pairs the group words of a question with the group they
// name ("моей команде", "my team").
var groupWordsOf = sync.OnceValue(func() map[string]string {
	return stemSet(map[string][]string{
		"team":       {"team", "команда", "команде", "команды"},
		"department": {"department", "отдел", "отделе", "отдела"},
		"family":     {"family", "семья", "семье", "семьи"},
		"group":      {"group", "группа", "группе", "группы"},
	})
})

// stemSet maps the stem of every word to its name. Each set is built on
// first use (sync.OnceValue): every memhook process links this package and
// few of them read tables.
func stemSet(words map[string][]string) map[string]string {
	out := map[string]string{}
	for name, ws := range words {
		for _, w := range ws {
			out[textan.Stem(w)] = name
		}
	}
	return out
}

// relationName is the name a relation word meets its rows by: the pair's
// name for the words relationWords knows (друзей, friends and подруга are
// "friend"), else the word's own stem (plurals built on another root by
// their singular).
func relationName(w string) string {
	st := relationStem(w)
	if n, ok := relationWords()[st]; ok {
		return n
	}
	return st
}

// sharedTable is the table a unit of a shaped table goes to: the existing
// table of the same kind in either language (so "contacts" is never made
// beside "kontakty"), else the one the grammar named. Its kind is the
// table's kind for the unit's slot, else the slot's kind in the table's
// language.
func sharedTable(u Shaped, infos []tables.TableInfo) (string, string) {
	named, err := tables.Normalize(u.Table)
	if err != nil {
		return u.Table, u.Kind
	}
	table := named
	if g := groupOfTable[named]; g != "" {
		for _, ti := range infos {
			if ti.Shape == tables.ShapeRoot && groupOfTable[ti.Name] == g {
				table = ti.Name
				break
			}
		}
	}
	for _, ti := range infos {
		if ti.Name != table {
			continue
		}
		for _, k := range ti.Kinds {
			if slotOfKind[k] == u.Slot {
				return table, k
			}
		}
	}
	if table == named {
		return table, u.Kind
	}
	return table, langs[tableLang(table)].kinds[u.Slot]
}

// lookupWords are a question's words for tables.Lookup, with the names
// of what it asks in either language's tables: the kinds of the slots it
// names ("live" adds zhivet and lives) and the tables of the groups it
// names ("команде" adds team), so tables.Lookup matches either.
func lookupWords(q string) []string {
	words := tables.Words(q)
	seen := map[string]bool{}
	add := func(n string) {
		if n, err := tables.Normalize(n); err == nil && !seen[n] {
			seen[n] = true
			words = append(words, n)
		}
	}
	for _, w := range textan.Words(q) {
		st := textan.Stem(w)
		if slot, ok := slotWords()[st]; ok {
			for _, lg := range langs {
				add(lg.kinds[slot])
			}
		}
		if g, ok := groupWordsOf()[st]; ok {
			for t, tg := range groupOfTable {
				if tg == g {
					add(t)
				}
			}
		}
	}
	return words
}
