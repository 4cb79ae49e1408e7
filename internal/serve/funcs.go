package serve

import (
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"net/url"
	"strings"
	"unicode"

	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
)

// levelWords are the levels as a person reads them.
var levelWords = map[int]string{
	blackbox.LevelTables: "tables", blackbox.LevelText: "memory text", blackbox.LevelGraph: "knowledge graph",
	blackbox.LevelVector: "meaning search (vectors)", blackbox.LevelResearch: "model research",
}

var kindWords = map[string]string{
	blackbox.KindAffirmative:   "Affirmative: values a person stated, in scope.",
	blackbox.KindProbabilistic: "Probabilistic: found by text, graph or research, or inferred, or of unknown scope.",
	blackbox.KindParamDep:      "Depends on a parameter you did not give: see Missing.",
	blackbox.KindNone:          "Nothing found up to the depth used.",
}

var funcs = template.FuncMap{
	"json": func(v any) string {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return fmt.Sprint(v)
		}
		return string(b)
	},
	"isText":    func(v any) bool { _, ok := v.(string); return ok },
	"join":      strings.Join,
	"skillPath": func(name string) string { return "/skills/" + url.PathEscape(name) },
	"round":     func(f float64) int { return int(math.Round(f)) },
	"short": func(s string) string {
		if len(s) > 12 {
			return s[:12]
		}
		return s
	},
	"fates": fateRows,
	"brk":   breakable,
	// clip shortens a label drawn in SVG, where text never wraps: the
	// whole of it goes in the element's title.
	"clip": func(s string, n int) string {
		if r := []rune(s); len(r) > n {
			return string(r[:n-1]) + "…"
		}
		return s
	},
	"add":  func(a, b int) int { return a + b },
	"arms": func(act, cand *runrec.Run) []*runrec.Run { return []*runrec.Run{act, cand} },
}

// A run of characters with no space longer than wordRunes is a token (a
// path, a hash, a pasted key), not a word: a table cell breaks it every
// tokenRunes characters.
const (
	wordRunes  = 24
	tokenRunes = 12
)

// breakable is text for a table cell: each token gets a break opportunity
// (<wbr>) every tokenRunes characters, so it wraps inside a narrow column,
// while a word stays whole — a column never shrinks to break "blocked"
// into "bloc ked", as overflow-wrap: anywhere would let it.
func breakable(s string) template.HTML {
	var b strings.Builder
	for len(s) > 0 {
		i := strings.IndexFunc(s, unicode.IsSpace)
		if i < 0 {
			i = len(s)
		}
		tok := []rune(s[:i])
		if len(tok) > wordRunes {
			for len(tok) > tokenRunes {
				b.WriteString(template.HTMLEscapeString(string(tok[:tokenRunes])) + "<wbr>")
				tok = tok[tokenRunes:]
			}
		}
		b.WriteString(template.HTMLEscapeString(string(tok)))
		s = s[i:]
		j := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsSpace(r) })
		if j < 0 {
			j = len(s)
		}
		b.WriteString(template.HTMLEscapeString(s[:j]))
		s = s[j:]
	}
	return template.HTML(b.String())
}
