package blackbox

import "testing"

func TestFlagsRefusedSaysAllOnOneLine(t *testing.T) {
	cases := []struct {
		verb          string
		given         map[string]any
		problem, hint string
	}{
		{VerbRecall, map[string]any{"depth": "deep"}, "", ""},
		{VerbRecall, map[string]any{"depth": "extrem"}, `--depth "extrem": want standard, deep or extreme`, "did you mean --depth extreme?"},
		{VerbRecall, map[string]any{"depth": "zzzzzzzz"}, `--depth "zzzzzzzz": want standard, deep or extreme`, "use --depth standard|deep|extreme"},
		{VerbRecall, map[string]any{"limit": 0}, "--limit 0: limit must be a whole number from 1 to 50", "for example --limit 5"},
		// a did-you-mean outranks an example, whichever comes first
		{VerbRecall, map[string]any{"limit": 0, "depth": "extrem"}, `--depth "extrem": want standard, deep or extreme; --limit 0: limit must be a whole number from 1 to 50`, "did you mean --depth extreme?"},
	}
	for _, c := range cases {
		problem, hint := FlagsRefused(c.verb, c.given)
		if problem != c.problem || hint != c.hint {
			t.Errorf("%v:\n got %q / %q\nwant %q / %q", c.given, problem, hint, c.problem, c.hint)
		}
	}
}
