package blackbox

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/text/suggest"
)

// FlagsRefused says in one line which values given as verb's flags the
// contract refuses ([CheckFlags]), as the command line reports them, with
// a hint: a did-you-mean for a choice near an allowed value, else an
// example, else the help. "" when every value is fine.
func FlagsRefused(verb string, given map[string]any) (problem, hint string) {
	var problems []string
	for _, p := range CheckFlags(verb, given) {
		if p.Param.Kind == KindChoice {
			var values []string
			for _, c := range p.Param.Choices {
				values = append(values, c.Value)
			}
			if slices.Contains(values, p.Value) {
				continue
			}
			problems = append(problems, fmt.Sprintf("--%s %q: want %s", p.Param.Name, p.Value, orList(values)))
			choiceHint := "use --" + p.Param.Name + " " + strings.Join(values, "|")
			if n := suggest.Nearest(p.Value, values); n != "" {
				choiceHint = "did you mean --" + p.Param.Name + " " + n + "?"
			}
			if hint == "" || !strings.HasPrefix(hint, "did you mean") {
				hint = choiceHint
			}
			continue
		}
		problems = append(problems, fmt.Sprintf("--%s %s: %s", p.Param.Name, p.Raw, p.Reason))
		if hint == "" && p.Param.Default != "" {
			hint = "for example --" + p.Param.Name + " " + p.Param.Default
		}
	}
	if len(problems) == 0 {
		return "", ""
	}
	if hint == "" {
		hint = "see `memhook " + verb + " --help`"
	}
	return strings.Join(problems, "; "), hint
}

// orList joins values as "a, b or c".
func orList(values []string) string {
	if len(values) < 2 {
		return strings.Join(values, "")
	}
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}
