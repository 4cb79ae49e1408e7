package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/frontmatter"
)

// The long-term slash commands follow the pattern that works in Claude
// Code (briefs/commands.md): allowed-tools covering the `!` line, errors
// routed to the model, and a memhook subcommand that exists.
func TestLongTermSlashCommands(t *testing.T) {
	bang := regexp.MustCompile("(?m)^!`env CLAUDE_PLUGIN_DATA=\"\\$\\{CLAUDE_PLUGIN_DATA\\}\" \"\\$\\{CLAUDE_PLUGIN_ROOT\\}/scripts/memhook\" ([a-z-]+) ([^`]*)2>&1 \\|\\| echo \"\\(memhook exited with status \\$\\?\\)\"`$")
	root := newRootCmd(&Factory{})
	for name, sub := range map[string]string{"memory_long_active": "long", "planfact": "planfact", "ingest": "ingest", "compile": "compile"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "commands", name+".md"))
		if err != nil {
			t.Fatal(err)
		}
		var meta struct {
			Description  string `yaml:"description"`
			ArgumentHint string `yaml:"argument-hint"`
			AllowedTools string `yaml:"allowed-tools"`
		}
		body, err := frontmatter.Parse(data, &meta)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if meta.Description == "" || meta.ArgumentHint == "" || !strings.Contains(meta.AllowedTools, "Bash(env CLAUDE_PLUGIN_DATA=*)") || !strings.Contains(meta.AllowedTools, "Bash(echo:*)") {
			t.Errorf("%s: frontmatter %+v", name, meta)
		}
		m := bang.FindStringSubmatch(string(body))
		if m == nil || m[1] != sub {
			t.Errorf("%s: no `!` line running memhook %s", name, sub)
			continue
		}
		if c, _, err := root.Find([]string{sub}); err != nil || c.Name() != sub {
			t.Errorf("%s: memhook has no %q command", name, sub)
		}
		// Commands the model is told to run must be allowed and exist.
		for _, use := range regexp.MustCompile(`scripts/memhook" ([a-z-]+) ([a-z]+)`).FindAllStringSubmatch(string(body), -1) {
			if !strings.Contains(meta.AllowedTools, "Bash(${CLAUDE_PLUGIN_ROOT}/scripts/memhook:*)") {
				t.Errorf("%s: tells the model to run memhook but does not allow it", name)
			}
			if c, _, err := root.Find([]string{use[1], use[2]}); err != nil || !(c.Name() == use[2] || !c.HasSubCommands() && c.Name() == use[1]) {
				t.Errorf("%s: memhook %s %s does not exist", name, use[1], use[2])
			}
		}
	}
}
