package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/text/frontmatter"
)

// The plugin's skills are loaded by Claude Code by folder name; a skill
// whose name differs from its folder, or that has no description, is
// never offered to the model.
func TestSkillsShape(t *testing.T) {
	dirs, err := os.ReadDir(filepath.Join("..", "..", "skills"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"use-tables": false, "use-knowledge-graph": false, "relearn": false, "use-memory": false}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join("..", "..", "skills", d.Name(), "SKILL.md"))
		if err != nil {
			t.Errorf("%s: %v", d.Name(), err)
			continue
		}
		var meta struct{ Name, Description string }
		body, err := frontmatter.Parse(data, &meta)
		if err != nil || meta.Name != d.Name() || len(meta.Description) < 20 {
			t.Errorf("%s: name %q description %q err %v", d.Name(), meta.Name, meta.Description, err)
		}
		// The model picks a skill by its description: one sentence saying
		// when to use it, with no pointer to docs in that field.
		if !strings.HasPrefix(meta.Description, "Use ") || strings.Count(strings.TrimSuffix(meta.Description, "."), ". ") > 0 || strings.Contains(meta.Description, "docs/") {
			t.Errorf("%s: description %q is not one sentence saying when to use the skill", d.Name(), meta.Description)
		}
		if !strings.Contains(string(body), `"${CLAUDE_PLUGIN_ROOT}/scripts/memhook"`) {
			t.Errorf("%s: must call memhook through the plugin root", d.Name())
		}
		if _, ok := want[d.Name()]; ok {
			want[d.Name()] = true
		}
		if d.Name() == "use-memory" && len(data) > 1500 {
			t.Errorf("the memory instruction must stay compact: %d bytes", len(data))
		}
	}
	for name, seen := range want {
		if !seen {
			t.Errorf("skill %s missing", name)
		}
	}
}
