package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/shortcmd"
	"github.com/spf13/cobra"
)

// ShortCommands are the slash commands the product promised by their short
// names (/org_ingest, not /cerebro:org_ingest), written by package
// shortcmd from the plugin's own commands/<name>.md.
var ShortCommands = []string{
	"memory_long_active", "org_init", "org_ingest", "org_query", "org_lint", "org_rollup",
	"org_dashboard", "ingest", "compile", "recall", "flush",
}

// CommandsOptions are the inputs of `memhook commands install|remove|status`.
type CommandsOptions struct {
	Out            io.Writer
	Getenv         func(string) string
	FindPluginRoot func() string
	Action         string
	Dir            string // where user-level commands live (~/.claude/commands)
	PluginRoot     string // the plugin checkout whose commands/ and scripts/memhook are used
}

func newCmdCommands(f *factory.Factory) *cobra.Command {
	opts := &CommandsOptions{Out: f.Out, Getenv: f.Getenv, FindPluginRoot: f.PluginRoot}
	cmd := &cobra.Command{
		Use:   "commands",
		Short: "Install, remove or list the short slash commands (/org_ingest, /recall, …)",
		Long: `Claude Code names a plugin's commands /cerebro:NAME. These short forms
(/memory_long_active, /org_ingest, /recall, …) are user-level commands in
~/.claude/commands/ that run this plugin's memhook. A command file a person
wrote is never overwritten: install skips it and says so, remove leaves it.`,
	}
	return addVerbs(cmd, []verb{
		{"install", "Add the short commands to ~/.claude/commands (a person's own file is skipped)", nil},
		{"remove", "Delete the short commands cerebro installed, and nothing else", nil},
		{"status", "Show which short commands are installed, out of date, missing or a person's own", nil},
	}, func(c *cobra.Command, name string) {
		c.Flags().StringVar(&opts.Dir, "dir", "", "the user-level commands folder (default ~/.claude/commands)")
		if name != "remove" {
			c.Flags().StringVar(&opts.PluginRoot, "plugin-root", "", "the plugin checkout to run (default the one holding this memhook)")
		}
	}, func(name string, args []string) error {
		opts.Action = name
		return commandsRun(opts)
	})
}

func commandsRun(opts *CommandsOptions) error {
	dir := opts.Dir
	if dir == "" {
		dir = filepath.Join(config.ClaudeDir(opts.Getenv), "commands")
	}
	root := opts.PluginRoot
	if root == "" && opts.Action != "remove" {
		root = opts.FindPluginRoot()
	}
	switch opts.Action {
	case "install":
		if root == "" {
			return hint.Wrap(errors.New("commands install: cannot tell which plugin checkout to run"), "run the memhook in the checkout's bin/, or pass --plugin-root")
		}
		res, err := shortcmd.Install(dir, ShortCommands, root)
		res.WriteSkipped(opts.Out)
		if err != nil {
			return fmt.Errorf("commands install: %w", err)
		}
		res.WriteText(opts.Out, dir)
	case "remove":
		res, err := shortcmd.Remove(dir, ShortCommands)
		res.WriteKept(opts.Out)
		if err != nil {
			return fmt.Errorf("commands remove: %w", err)
		}
		fmt.Fprintf(opts.Out, "removed %d short commands from %s\n", res.Count, dir)
	default:
		shortcmd.WriteStatus(opts.Out, ShortCommands, shortcmd.Status(dir, ShortCommands, root))
	}
	return nil
}
