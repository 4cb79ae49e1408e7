package serve

import (
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"net/url"
	"strings"

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
