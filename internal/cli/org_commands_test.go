package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/frontmatter"
)

// The org slash commands follow the working pattern (briefs/commands.md)
// and run memhook subcommands that exist.
func TestOrgSlashCommands(t *testing.T) {
	bang := regexp.MustCompile("(?m)^!`env CLAUDE_PLUGIN_DATA=\"\\$\\{CLAUDE_PLUGIN_DATA\\}\" \"\\$\\{CLAUDE_PLUGIN_ROOT\\}/scripts/memhook\" org ([a-z]+) \\$ARGUMENTS 2>&1 \\|\\| echo \"\\(memhook exited with status \\$\\?\\)\"`$")
	root := newRootCmd(&Factory{})
	for name, sub := range map[string]string{"org_ingest": "ingest", "org_query": "query", "org_lint": "lint"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "commands", name+".md"))
		if err != nil {
			t.Fatal(err)
		}
		var meta struct {
			Description  string `yaml:"description"`
			AllowedTools string `yaml:"allowed-tools"`
		}
		body, err := frontmatter.Parse(data, &meta)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if meta.Description == "" || !strings.Contains(meta.AllowedTools, "Bash(env CLAUDE_PLUGIN_DATA=*)") || !strings.Contains(meta.AllowedTools, "Bash(echo:*)") {
			t.Errorf("%s: frontmatter %+v", name, meta)
		}
		m := bang.FindStringSubmatch(string(body))
		if m == nil || m[1] != sub {
			t.Errorf("%s: no `!` line running memhook org %s", name, sub)
			continue
		}
		if c, _, err := root.Find([]string{"org", sub}); err != nil || c.Name() != sub {
			t.Errorf("%s: memhook has no org %s", name, sub)
		}
		for _, use := range regexp.MustCompile(`scripts/memhook" org ([a-z]+)`).FindAllStringSubmatch(string(body), -1) {
			if !strings.Contains(meta.AllowedTools, "Bash(${CLAUDE_PLUGIN_ROOT}/scripts/memhook:*)") {
				t.Errorf("%s: tells the model to run memhook but does not allow it", name)
			}
			if c, _, err := root.Find([]string{"org", use[1]}); err != nil || c.Name() != use[1] {
				t.Errorf("%s: memhook org %s does not exist", name, use[1])
			}
		}
	}
}
