package cli

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/claudeperm"
	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/mcp"
	"github.com/spf13/cobra"
)

// readOnlyTools are the plugin's MCP tools that only read memory. Claude
// Code asks before a session's first use of any MCP tool, and in -p mode
// (nothing can ask) refuses it: allowing these two at install keeps the
// first hour free of that stumble. recall (which may put an answer back
// into memory) and remember (which writes) keep asking.
var readOnlyTools = []string{mcpToolPrefix + "__" + mcp.ToolSearch, mcpToolPrefix + "__" + mcp.ToolGet}

const mcpToolPrefix = mcp.ToolPrefix

// PermissionsOptions are the inputs of `memhook permissions install|remove`.
type PermissionsOptions struct {
	Out                io.Writer
	Getenv             func(string) string
	PermissionsRecords func() string
	Action             string
	Settings           string // Claude Code's user settings file (default ~/.claude/settings.json)
}

func newCmdPermissions(f *factory.Factory) *cobra.Command {
	opts := &PermissionsOptions{Out: f.Out, Getenv: f.Getenv, PermissionsRecords: f.PermissionsRecords}
	cmd := &cobra.Command{
		Use:   "permissions",
		Short: "Allow the read-only memory tools in Claude Code without asking, or take that back",
		Long: `Claude Code asks before a session first uses an MCP tool, and in -p mode,
where nothing can ask, refuses it. install adds the plugin's two read-only
tools, memory_search and memory_get, to permissions.allow in your Claude
Code settings (~/.claude/settings.json, or $CLAUDE_CONFIG_DIR's), keeping
everything else the file holds; recall and remember still ask. It adds
nothing for a tool your settings deny or ask for. remove takes out exactly
the rules install added, as it recorded them, and nothing else.`,
	}
	return addVerbs(cmd, []verb{
		{"install", "Add memory_search and memory_get to permissions.allow in ~/.claude/settings.json", nil},
		{"remove", "Take out the rules install added, and nothing else", nil},
	}, func(c *cobra.Command, name string) {
		c.Flags().StringVar(&opts.Settings, "settings", "", "Claude Code's user settings file (default ~/.claude/settings.json)")
	}, func(name string, args []string) error {
		opts.Action = name
		return permissionsRun(opts)
	})
}

func permissionsRun(opts *PermissionsOptions) error {
	settings := opts.Settings
	if settings == "" {
		settings = filepath.Join(config.ClaudeDir(opts.Getenv), "settings.json")
	}
	settings, err := filepath.Abs(settings)
	if err != nil {
		return fmt.Errorf("permissions %s: %w", opts.Action, err)
	}
	in := claudeperm.Installer{Settings: settings, Records: opts.PermissionsRecords(), Prefix: mcpToolPrefix + "__"}
	if opts.Action == "remove" {
		ch, recorded, err := in.Remove()
		if err != nil {
			return err
		}
		in.WriteRemoved(opts.Out, ch, recorded)
		return nil
	}
	ch, err := in.Install(readOnlyTools)
	if err != nil {
		return err
	}
	in.WriteInstalled(opts.Out, ch)
	return nil
}
