package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/frontmatter"
	"github.com/spf13/cobra"
)

// Every slash command follows the pattern that works in Claude Code
// (briefs/commands.md): one `!` line that runs an existing memhook command
// with the plugin's data dir and routes its errors to the model, and
// allowed-tools covering that line. Every memhook call a command tells the
// model to make must be allowed too: in `claude -p` a tool call the command
// does not allow is refused ("This command requires approval"), and
// interactively it stops to ask.
func TestSlashCommands(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "commands", "*.md"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no commands: %v", err)
	}
	bang := regexp.MustCompile("^!`env CLAUDE_PLUGIN_DATA=\"\\$\\{CLAUDE_PLUGIN_DATA\\}\" \"\\$\\{CLAUDE_PLUGIN_ROOT\\}/scripts/memhook\" ([^`]*) 2>&1 \\|\\| echo \"\\(memhook [^`]*exited with status \\$\\?[^`]*\\)\"`$")
	call := regexp.MustCompile(`scripts/memhook" ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?`)
	root := newRootCmd(&Factory{})
	for _, words := range [][]string{{"nosuch", ""}, {"org", "nosuch"}} {
		if commandExists(root, words) {
			t.Fatalf("commandExists(%q) = true for a command that does not exist", words)
		}
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var meta struct {
			Description  string `yaml:"description"`
			AllowedTools string `yaml:"allowed-tools"`
		}
		body, err := frontmatter.Parse(data, &meta)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		name := strings.TrimSuffix(filepath.Base(p), ".md")
		if meta.Description == "" {
			t.Errorf("%s: no description", name)
		}
		bangs := 0
		for _, line := range strings.Split(string(body), "\n") {
			if strings.HasPrefix(line, "!`") {
				bangs++
				if !bang.MatchString(line) {
					t.Errorf("%s: `!` line does not follow the working pattern: %s", name, line)
				}
				if !strings.Contains(meta.AllowedTools, "Bash(env CLAUDE_PLUGIN_DATA=*)") || !strings.Contains(meta.AllowedTools, "Bash(echo:*)") {
					t.Errorf("%s: allowed-tools %q does not cover the `!` line", name, meta.AllowedTools)
				}
			} else if strings.Contains(line, "scripts/memhook\"") && !strings.Contains(meta.AllowedTools, "Bash(${CLAUDE_PLUGIN_ROOT}/scripts/memhook:*)") {
				t.Errorf("%s: tells the model to run memhook but allowed-tools %q does not allow it", name, meta.AllowedTools)
			}
			for _, m := range call.FindAllStringSubmatch(line, -1) {
				if !commandExists(root, m[1:]) {
					t.Errorf("%s: memhook %s does not exist", name, strings.TrimSpace(m[1]+" "+m[2]))
				}
			}
		}
		if bangs != 1 {
			t.Errorf("%s: %d `!` lines, want 1", name, bangs)
		}
	}
}

// commandExists reports whether words name a memhook command: a command
// with sub-commands must be followed by one of them; a leaf command may be
// followed by an argument.
func commandExists(root *cobra.Command, words []string) bool {
	if words[len(words)-1] == "" {
		words = words[:len(words)-1]
	}
	c, _, err := root.Find(words)
	if err != nil || c == root {
		return false
	}
	return c.Name() == words[len(words)-1] || !c.HasSubCommands() && c.Name() == words[0]
}
