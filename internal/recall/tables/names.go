package tables

import (
	"fmt"
	"strings"
	"sync"
	"unicode"
)

// MaxNameLen bounds a normalised name; SQLite does not care, people reading
// the tables do.
const MaxNameLen = 63

// NameError refuses a model-born name whole: a name that needs repair is
// not a name, and a silently repaired one would live in the person's table
// forever.
type NameError struct {
	Name   string
	Char   rune // the first character refused, 0 when the reason is not a character
	Reason string
}

func (e *NameError) Error() string {
	if e.Char != 0 {
		return fmt.Sprintf("name %q refused: character %q (U+%04X) %s", e.Name, e.Char, e.Char, e.Reason)
	}
	return fmt.Sprintf("name %q refused: %s", e.Name, e.Reason)
}

// Hint tells the caller what a name may hold.
func (e *NameError) Hint() string {
	return "a name holds Latin or Cyrillic letters, digits, spaces, hyphens and underscores, starts with a letter and is not an SQL keyword"
}

// translit is the one fixed Cyrillic table (Russian, ISO 9 style without
// diacritics): a name transliterates the same way every time, so the same
// word always reaches the same table.
var translit = map[rune]string{
	'а': "a", 'б': "b", 'в': "v", 'г': "g", 'д': "d", 'е': "e", 'ё': "e", 'ж': "zh",
	'з': "z", 'и': "i", 'й': "y", 'к': "k", 'л': "l", 'м': "m", 'н': "n", 'о': "o",
	'п': "p", 'р': "r", 'с': "s", 'т': "t", 'у': "u", 'ф': "f", 'х': "kh", 'ц': "ts",
	'ч': "ch", 'ш': "sh", 'щ': "shch", 'ъ': "", 'ы': "y", 'ь': "", 'э': "e", 'ю': "yu",
	'я': "ya", 'і': "i", 'ї': "yi", 'є': "ye", 'ґ': "g",
}

// sqlKeywords are refused as whole names (after normalisation) so that a
// name can never read as SQL, even where it would be quoted. Built on
// first use: every memhook process links this package, few name a table.
var sqlKeywords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, k := range strings.Fields(`abort action add after all alter analyze and as asc attach
	autoincrement before begin between by cascade case cast check collate column commit conflict
	constraint create cross current_date current_time current_timestamp database default
	deferrable deferred delete desc detach distinct drop each else end escape except exclusive
	exists explain fail for foreign from full glob group having if ignore immediate in index
	indexed initially inner insert instead intersect into is isnull join key left like limit
	match natural no not notnull null of offset on or order outer plan pragma primary query
	raise recursive references regexp reindex release rename replace restrict right rollback
	row rowid savepoint select set table temp temporary then to transaction trigger union
	unique update using vacuum values view virtual when where with without oid _rowid_`) {
		m[k] = true
	}
	return m
})

// Normalize turns a model-born name into the form that reaches SQL: lower
// case, spaces and hyphens as underscores, Cyrillic transliterated by the
// fixed table. Anything else — punctuation, quotes, other scripts — refuses
// the whole name with a [*NameError] naming the character.
func Normalize(name string) (string, error) {
	trimmed := strings.TrimSpace(name)
	if trimmed == "" {
		return "", &NameError{Name: name, Reason: "is empty"}
	}
	var b strings.Builder
	for _, r := range trimmed {
		lr := unicode.ToLower(r)
		switch {
		case lr >= 'a' && lr <= 'z', lr >= '0' && lr <= '9', lr == '_':
			b.WriteRune(lr)
		case lr == ' ' || lr == '-' || lr == '\t':
			b.WriteByte('_')
		default:
			t, ok := translit[lr]
			if !ok {
				reason := "is not allowed in a name"
				if unicode.IsLetter(r) {
					reason = "is a letter of a script with no fixed transliteration"
				}
				return "", &NameError{Name: name, Char: r, Reason: reason}
			}
			b.WriteString(t)
		}
	}
	out := b.String()
	for strings.Contains(out, "__") {
		out = strings.ReplaceAll(out, "__", "_")
	}
	out = strings.Trim(out, "_")
	switch {
	case out == "":
		return "", &NameError{Name: name, Reason: "holds no letters or digits"}
	case out[0] >= '0' && out[0] <= '9':
		return "", &NameError{Name: name, Reason: "must start with a letter"}
	case len(out) > MaxNameLen:
		return "", &NameError{Name: name, Reason: fmt.Sprintf("is longer than %d characters once normalised", MaxNameLen)}
	case strings.HasPrefix(out, "sqlite_"):
		return "", &NameError{Name: name, Reason: "uses the prefix sqlite_, reserved by SQLite"}
	case sqlKeywords()[out]:
		return "", &NameError{Name: name, Reason: fmt.Sprintf("normalises to the SQL keyword %q", out)}
	}
	return out, nil
}
