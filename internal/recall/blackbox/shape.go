package blackbox

import (
	"strings"
	"unicode"

	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// ShapeNote says which rules shaped a remembered phrase into table rows,
// or that none did.
type ShapeNote struct {
	Rule string `json:"rule"` // the rules that read the phrase, joined by "+", or "none"
	Note string `json:"note"`
	// Units are the values read, each with the hand that wrote it.
	Units []ShapeUnit `json:"units,omitempty"`
	// Unread are the clauses no rule read: they are in the record only.
	Unread []string `json:"unread,omitempty"`
	// Merged says which tables of one kind, split by language by an
	// older memhook, were merged into one before this phrase was written.
	Merged []string `json:"merged,omitempty"`
}

// ShapeUnit is one value a rule read and where it went.
type ShapeUnit struct {
	Rule  string `json:"rule"`
	Table string `json:"table"`
	Kind  string `json:"kind"`
	Key   string `json:"key"`
	Value string `json:"value"`
	// Hand is how it was written: new_kind, write, update (in place, the
	// phrase said the value changed), promote (a second value made the
	// kind a list, the earlier value moved with its own time), append,
	// known (the table held it already; nothing written).
	Hand string `json:"hand"`
}

var (
	phoneValue = lazyregexp.New(`^\+?\d[\d\s().-]{2,30}$`)
	emailValue = lazyregexp.New(`^[^\s@]+@[^\s@]+\.[^\s@]+$`)
)

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
