package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/spf13/cobra"
)

// ShortCommands are the slash commands the product promised by their short
// names (/org_ingest, not /cerebro:org_ingest): Claude Code namespaces every
// plugin command, so these are user-level commands in ~/.claude/commands/
// that run the plugin's memhook. Each is made from the plugin's own
// commands/<name>.md.
var ShortCommands = []string{
	"memory_long_active", "org_init", "org_ingest", "org_query", "org_lint", "org_rollup",
	"org_dashboard", "ingest", "compile", "recall", "flush",
}

// shortMarker marks a command file as cerebro's: install replaces only
// such files and remove deletes only them. It is a YAML comment in the
// frontmatter, so it costs the model no tokens.
const shortMarker = "# cerebro: installed by `memhook commands install`; `memhook commands remove` deletes it"

// CommandsOptions are the inputs of `memhook commands install|remove|status`.
type CommandsOptions struct {
	*Factory
	Action     string
	Dir        string // where user-level commands live (~/.claude/commands)
	PluginRoot string // the plugin checkout whose commands/ and scripts/memhook are used
}

func newCmdCommands(f *Factory) *cobra.Command {
	opts := &CommandsOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "commands",
		Short: "Install, remove or list the short slash commands (/org_ingest, /recall, …)",
		Long: `Claude Code names a plugin's commands /cerebro:NAME. These short forms
(/memory_long_active, /org_ingest, /recall, …) are user-level commands in
~/.claude/commands/ that run this plugin's memhook. A command file a person
wrote is never overwritten: install skips it and says so, remove leaves it.`,
	}
	for _, a := range []struct{ name, short string }{
		{"install", "Add the short commands to ~/.claude/commands (a person's own file is skipped)"},
		{"remove", "Delete the short commands cerebro installed, and nothing else"},
		{"status", "Show which short commands are installed, out of date, missing or a person's own"},
	} {
		a := a
		sub := &cobra.Command{
			Use: a.name, Short: a.short, Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				opts.Action = a.name
				return commandsRun(opts)
			},
		}
		sub.Flags().StringVar(&opts.Dir, "dir", "", "the user-level commands folder (default ~/.claude/commands)")
		if a.name != "remove" {
			sub.Flags().StringVar(&opts.PluginRoot, "plugin-root", "", "the plugin checkout to run (default the one holding this memhook)")
		}
		cmd.AddCommand(sub)
	}
	return cmd
}

// userCommandsDir is ~/.claude/commands, or $CLAUDE_CONFIG_DIR/commands.
func userCommandsDir(f *Factory) string {
	return filepath.Join(claudeConfigDir(f), "commands")
}

// shortState is what one short command's file is.
type shortState int

const (
	shortMissing shortState = iota
	shortOurs
	shortTheirs
	// shortStale is cerebro's file, written from an older text of the
	// plugin's command or for a checkout that has moved: the command
	// still runs, with the instructions it had when installed.
	shortStale
)

func (s shortState) String() string {
	return [...]string{"not installed", "installed", "a person's own file (left alone)", "installed, out of date (memhook commands install refreshes it)"}[s]
}

// readShort reports whose file dir/name.md is, with its text when it is
// cerebro's; it reads at most 64 KiB through the safe file layer, which
// never follows a symbolic link (a link is nobody's to overwrite) nor
// opens a FIFO.
func readShort(path string) (shortState, []byte, error) {
	data, err := safefs.ReadFile(path, 64<<10)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return shortMissing, nil, nil
	case safefs.Refused(err):
		return shortTheirs, nil, nil
	case err != nil:
		return shortTheirs, nil, err
	case bytes.Contains(data, []byte(shortMarker)):
		return shortOurs, data, nil
	}
	return shortTheirs, nil, nil
}

// ShortStatus lists each short command's state in dir, for status and
// doctor. With the plugin checkout's root, a file of cerebro's that is
// not what install would write now is out of date; when the checkout's
// command cannot be read there is nothing to compare, and it counts as
// current.
func ShortStatus(dir, root string) map[string]shortState {
	out := map[string]shortState{}
	for _, n := range ShortCommands {
		st, data, _ := readShort(filepath.Join(dir, n+".md"))
		if st == shortOurs && root != "" {
			if want, err := shortText(root, n); err == nil && string(data) != want {
				st = shortStale
			}
		}
		out[n] = st
	}
	return out
}

func commandsRun(opts *CommandsOptions) error {
	dir := opts.Dir
	if dir == "" {
		dir = userCommandsDir(opts.Factory)
	}
	switch opts.Action {
	case "install":
		return commandsInstall(opts, dir)
	case "remove":
		return commandsRemove(opts, dir)
	}
	root := opts.PluginRoot
	if root == "" {
		root = opts.pluginRoot()
	}
	st := ShortStatus(dir, root)
	for _, n := range ShortCommands {
		fmt.Fprintf(opts.Out, "/%-19s %s\n", n, st[n])
	}
	return nil
}

func commandsInstall(opts *CommandsOptions, dir string) error {
	root := opts.PluginRoot
	if root == "" {
		root = opts.pluginRoot()
	}
	if root == "" {
		return withHint(errors.New("commands install: cannot tell which plugin checkout to run"), "run the memhook in the checkout's bin/, or pass --plugin-root")
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return fmt.Errorf("commands install: %w", err)
	}
	// The path goes into a shell line between double quotes.
	if strings.ContainsAny(root, "\"`$\\\n") {
		return fmt.Errorf("commands install: the plugin path %q holds a character a shell line cannot quote safely; move the checkout", root)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("commands install: create %s: %w", dir, err)
	}
	installed, skipped := 0, 0
	for _, n := range ShortCommands {
		path := filepath.Join(dir, n+".md")
		st, _, err := readShort(path)
		if err != nil {
			return fmt.Errorf("commands install: read %s: %w", path, err)
		}
		if st == shortTheirs {
			fmt.Fprintf(opts.Out, "skipped /%s: %s is not cerebro's; kept as it is (/cerebro:%s still works)\n", n, path, n)
			skipped++
			continue
		}
		text, err := shortText(root, n)
		if err != nil {
			return fmt.Errorf("commands install: %w", err)
		}
		if err := atomicfile.Write(path, []byte(text), 0o644); err != nil {
			return fmt.Errorf("commands install: write %s: %w", path, err)
		}
		installed++
	}
	fmt.Fprintf(opts.Out, "installed %d short commands in %s (running %s)", installed, dir, filepath.Join(root, "scripts", "memhook"))
	if skipped > 0 {
		fmt.Fprintf(opts.Out, "; skipped %d", skipped)
	}
	fmt.Fprintln(opts.Out)
	return nil
}

func commandsRemove(opts *CommandsOptions, dir string) error {
	removed := 0
	for _, n := range ShortCommands {
		path := filepath.Join(dir, n+".md")
		st, _, err := readShort(path)
		if err != nil {
			return fmt.Errorf("commands remove: read %s: %w", path, err)
		}
		switch st {
		case shortOurs:
			if err := os.Remove(path); err != nil {
				return fmt.Errorf("commands remove: %w", err)
			}
			removed++
		case shortTheirs:
			fmt.Fprintf(opts.Out, "kept %s: not cerebro's\n", path)
		}
	}
	// An empty folder is no one's content: leave no trace of the install.
	if entries, err := os.ReadDir(dir); err == nil && len(entries) == 0 {
		_ = os.Remove(dir)
	}
	fmt.Fprintf(opts.Out, "removed %d short commands from %s\n", removed, dir)
	return nil
}
