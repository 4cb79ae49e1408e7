package distill

import "testing"

// TestEmphasisKeepsNames: Markdown's emphasis goes, the marks a name
// holds stay, and such a name is put in a code span (issue 45 item 7).
func TestEmphasisKeepsNames(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"Call **memory_search** now", "Call memory_search now"},
		{"use __strong__ and *em* here", "use strong and em here"},
		{"**a** **b**", "a b"},
		{"the tool mcp__plugin_cerebro_memory__memory_search answers", "the tool `mcp__plugin_cerebro_memory__memory_search` answers"},
		{"edit __init__.py first", "edit `__init__.py` first"},
		{"glob **/*.go and 2*3*4", "glob **/*.go and `2*3*4`"},
		{"`mcp__x__y` already code", "`mcp__x__y` already code"},
		{"snake_case_name stays", "snake_case_name stays"},
		{"**Zero `# pragma: no cover` exclusions, with one exception:** the entry point", "Zero `# pragma: no cover` exclusions, with one exception: the entry point"},
	} {
		if got := codeSpanMarks(emphasis.Replace(tt.in)); got != tt.want {
			t.Errorf("%q → %q, want %q", tt.in, got, tt.want)
		}
	}
	// Through the distiller: the final message keeps the tool's name.
	body := bodyOf(newSession(t).User("which tool searched?").
		Say("It was **mcp__plugin_cerebro_memory__memory_search**, called twice."))
	if got := sectionOf(body, "Final message"); len(got) != 1 || got[0] != "It was `mcp__plugin_cerebro_memory__memory_search`, called twice." {
		t.Errorf("final: %q", got)
	}
}
