package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/shortterm/distill"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// TestEveryCommandIsHousekeepingToTheDistiller ties the distiller's list
// of cerebro's own commands to the commands cerebro ships: running any of
// them, by its plugin name or its short user-level name, is never recorded
// as a request (a command that changed the memory may leave an outcome). A command added to commands/ or ShortCommands without the
// distiller knowing it fails here.
func TestEveryCommandIsHousekeepingToTheDistiller(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "commands", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no plugin commands found: %v", err)
	}
	var prompts []string
	for _, f := range files {
		prompts = append(prompts, "/cerebro:"+strings.TrimSuffix(filepath.Base(f), ".md"))
	}
	for _, n := range ShortCommands {
		if _, err := os.Stat(filepath.Join("..", "..", "commands", n+".md")); err != nil {
			t.Errorf("short command %s has no plugin command: %v", n, err)
		}
		prompts = append(prompts, "/"+n)
	}
	const arg = "zebra quokka"
	for _, p := range prompts {
		items := []transcript.Item{
			{Role: transcript.RoleUser, Text: "Add a retry to the uploader", ID: "u1"},
			{Role: transcript.RoleAssistant, Text: "I added a retry to the uploader.", ID: "a1"},
			{Role: transcript.RoleUser, Text: p + " " + arg, ID: "u2"},
			{Role: transcript.RoleAssistant, Text: "Done.", ID: "a2"},
		}
		body := distill.Extractive(distill.Segment{Items: items, Dir: "/p"})
		asked := bulletsUnder(body, "### "+daily.HeadAsked)
		if len(asked) == 0 || countContaining(asked, arg) > 0 {
			t.Errorf("%s is recorded as a request:\n%s", p, body)
		}
	}
}
