package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/slash"
	"github.com/cerebro-mem/cerebro/internal/text/frontmatter"
	"github.com/spf13/cobra"
)

// slashDelim ends the quoted here-document a command hands its $ARGUMENTS
// in. No line of the arguments can equal it: Claude Code writes an
// argument's "!" at a line's start as "\!" (the same escape that keeps an
// argument from opening a `!` block of its own), so the here-document ends
// on the block's own line, and bash prints no warning.
const slashDelim = "!CEREBRO"

// slashHeredoc is the tail of the block of a command that takes words.
const slashHeredoc = "<<'" + slashDelim + "'\n$ARGUMENTS\n" + slashDelim

// slashNoWords is the tail of the block of a command whose memhook command
// takes no words: no $ARGUMENTS in the block (Claude Code then appends the
// person's words after the body, as text), so no here-document.
const slashNoWords = "</dev/null"

// Every slash command follows one of the two safe patterns: a fenced `!`
// block that runs `memhook slash` with the plugin's data dir and either
// hands it $ARGUMENTS in a quoted here-document that no shell expands and
// no argument line can end (slashHeredoc), or, when the memhook command
// takes no words, hands it none (slashNoWords). allowed-tools
// allows exactly that invocation, and each memhook call the command tells
// the model to make by its own prefix: in `claude -p` a tool call the
// command does not allow is refused, and interactively it stops to ask.
func TestSlashCommands(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "commands", "*.md"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no commands: %v", err)
	}
	const mh = `"${CLAUDE_PLUGIN_ROOT}/scripts/memhook"`
	block := regexp.MustCompile("(?s)```!\n" + regexp.QuoteMeta(mh+` slash --state-dir "${CLAUDE_PLUGIN_DATA}" `) + `((?:--text )?[a-z][a-z -]*[a-z]) (` + regexp.QuoteMeta(slashHeredoc) + `|` + regexp.QuoteMeta(slashNoWords) + `)\n` + "```\n")
	call := regexp.MustCompile(`scripts/memhook" ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?`)
	root := newRootCmd(&factory.Factory{})
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
		blocks := block.FindAllStringSubmatch(string(body), -1)
		if len(blocks) != 1 || !strings.HasPrefix(string(body), blocks[0][0]) {
			t.Errorf("%s: the body must open with exactly one `memhook slash` block in the safe pattern; found %d", name, len(blocks))
			continue
		}
		sub := blocks[0][1]
		words := strings.Fields(strings.TrimPrefix(sub, "--text "))
		if !commandExists(root, words[:min(2, len(words))]) {
			t.Errorf("%s: memhook %s does not exist", name, sub)
		}
		// A block that hands memhook no words must run a command that
		// takes none: no argument, no option, no sub-command.
		if blocks[0][2] == slashNoWords {
			c, _, _ := root.Find(words)
			if slash.TakesOptions(strings.Fields(sub)) || c == nil || c.Args == nil || c.Args(c, []string{"x"}) == nil {
				t.Errorf("%s: the block hands memhook %s no words, but it takes some: use the here-document", name, sub)
			}
		}
		rules := allowedBash(meta.AllowedTools)
		want := mh + ` slash --state-dir "${CLAUDE_PLUGIN_DATA}" ` + sub + ":*"
		if len(rules) == 0 || rules[0] != want {
			t.Errorf("%s: the first allowed Bash rule is %q, want exactly the block's invocation %q", name, first(rules), want)
		}
		for _, r := range rules {
			if !strings.HasPrefix(r, mh+" ") || strings.Contains(r, "=*") || strings.HasSuffix(r, mh+":*") {
				t.Errorf("%s: allowed-tools rule Bash(%s) is wider than one memhook invocation", name, r)
			}
		}
		if strings.Contains(string(body), "!`") || strings.Count(string(body), "$ARGUMENTS") > 1 && !strings.Contains(meta.AllowedTools, "Read") {
			t.Errorf("%s: an inline `!` line or $ARGUMENTS outside the block", name)
		}
		rest := strings.TrimPrefix(string(body), blocks[0][0])
		for _, line := range strings.Split(rest, "\n") {
			for _, m := range call.FindAllStringSubmatch(line, -1) {
				if !commandExists(root, m[1:]) {
					t.Errorf("%s: memhook %s does not exist", name, strings.TrimSpace(m[1]+" "+m[2]))
					continue
				}
				if m[1] == "slash" {
					continue
				}
				prefix := mh + " " + m[1]
				if cmd, _, _ := root.Find([]string{m[1]}); cmd != nil && cmd.HasSubCommands() {
					prefix += " " + m[2]
				}
				if !slices.Contains(rules, prefix+":*") {
					t.Errorf("%s: tells the model to run %s but allowed-tools does not allow it (%q)", name, prefix, meta.AllowedTools)
				}
			}
		}
	}
}

// allowedBash lists the patterns of the Bash(…) rules in allowed-tools.
func allowedBash(tools string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`Bash\(([^)]*)\)`).FindAllStringSubmatch(tools, -1) {
		out = append(out, m[1])
	}
	return out
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
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
