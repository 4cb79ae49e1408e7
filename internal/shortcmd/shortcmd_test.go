package shortcmd

import (
	"strings"
	"testing"
)

// A plugin command that hides itself from the model already is hidden
// once; one without frontmatter, or with a plugin variable a user-level
// command cannot resolve, is refused.
func TestCommandText(t *testing.T) {
	names := []string{"recall"}
	text, err := commandText("---\ndescription: d\ndisable-model-invocation: true\n---\nbody\n", "/p", names)
	if err != nil || strings.Count(text, "disable-model-invocation:") != 1 || !strings.Contains(text, Marker) {
		t.Errorf("a command hidden already is hidden once: %v\n%s", err, text)
	}
	text, err = commandText("---\ndescription: d\n---\nrun ${CLAUDE_PLUGIN_ROOT}/scripts/memhook --state-dir \"${CLAUDE_PLUGIN_DATA}\"; see /cerebro:recall\n", "/p", names)
	if err != nil || !strings.Contains(text, "run /p/scripts/memhook; see /recall") {
		t.Errorf("paths and names: %v\n%s", err, text)
	}
	for _, bad := range []string{"no frontmatter", "---\nopen", "---\nd: x\n---\n${CLAUDE_PLUGIN_OTHER}\n"} {
		if _, err := commandText(bad, "/p", names); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}
