package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/frontmatter"
)

// Every memhook call a slash command tells the model to make must be
// allowed by the command's own allowed-tools: in `claude -p` a tool call
// the command does not allow is refused ("This command requires approval"),
// and interactively it stops to ask. The `!` lines are checked elsewhere.
func TestCommandsAllowTheMemhookCallsTheyAskFor(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "commands", "*.md"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no commands: %v", err)
	}
	call := regexp.MustCompile(`scripts/memhook" ([a-z-]+)`)
	root := newRootCmd(&Factory{})
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var meta struct {
			AllowedTools string `yaml:"allowed-tools"`
		}
		body, err := frontmatter.Parse(data, &meta)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		name := strings.TrimSuffix(filepath.Base(p), ".md")
		for _, line := range strings.Split(string(body), "\n") {
			if strings.HasPrefix(line, "!`") {
				continue
			}
			for _, m := range call.FindAllStringSubmatch(line, -1) {
				if !strings.Contains(meta.AllowedTools, "Bash(${CLAUDE_PLUGIN_ROOT}/scripts/memhook:*)") {
					t.Errorf("%s: tells the model to run memhook %s but allowed-tools %q does not allow it", name, m[1], meta.AllowedTools)
				}
				if c, _, err := root.Find([]string{m[1]}); err != nil || c.Name() != m[1] {
					t.Errorf("%s: memhook has no %q command", name, m[1])
				}
			}
			if strings.Contains(line, "env CLAUDE_PLUGIN_DATA=") && !strings.Contains(meta.AllowedTools, "Bash(env CLAUDE_PLUGIN_DATA=*)") {
				t.Errorf("%s: tells the model to run env CLAUDE_PLUGIN_DATA=… but does not allow it", name)
			}
		}
	}
}
