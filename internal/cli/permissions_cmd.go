package cli

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/claudeperm"
	"github.com/cerebro-mem/cerebro/internal/config"
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
	*Factory
	Action   string
	Settings string // Claude Code's user settings file (default ~/.claude/settings.json)
}

func newCmdPermissions(f *Factory) *cobra.Command {
	opts := &PermissionsOptions{Factory: f}
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
	for _, a := range []struct{ name, short string }{
		{"install", "Add memory_search and memory_get to permissions.allow in ~/.claude/settings.json"},
		{"remove", "Take out the rules install added, and nothing else"},
	} {
		a := a
		sub := &cobra.Command{
			Use: a.name, Short: a.short, Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				opts.Action = a.name
				return permissionsRun(opts)
			},
		}
		sub.Flags().StringVar(&opts.Settings, "settings", "", "Claude Code's user settings file (default ~/.claude/settings.json)")
		cmd.AddCommand(sub)
	}
	return cmd
}

// claudeConfigDir is ~/.claude, or $CLAUDE_CONFIG_DIR, where Claude Code
// keeps the user's settings and commands.
func claudeConfigDir(f *Factory) string {
	if d := f.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return d
	}
	home := f.Getenv("HOME")
	if home == "" {
		home = f.Getenv("USERPROFILE")
	}
	return filepath.Join(home, ".claude")
}

// userSettingsFile is Claude Code's user settings file.
func userSettingsFile(f *Factory) string {
	return filepath.Join(claudeConfigDir(f), "settings.json")
}

func permissionsRecordFile(f *Factory) string {
	return filepath.Join(filepath.Dir(config.UserFile(f.Getenv)), "claude-permissions.json")
}

func permissionsRun(opts *PermissionsOptions) error {
	settings := opts.Settings
	if settings == "" {
		settings = userSettingsFile(opts.Factory)
	}
	settings, err := filepath.Abs(settings)
	if err != nil {
		return fmt.Errorf("permissions %s: %w", opts.Action, err)
	}
	recordPath := permissionsRecordFile(opts.Factory)
	recs, err := claudeperm.ReadRecords(recordPath)
	if err != nil {
		return withHint(fmt.Errorf("permissions %s: read the record of what install added: %w", opts.Action, err), "move the file aside; remove then takes out nothing")
	}
	i := slices.IndexFunc(recs, func(r claudeperm.Record) bool { return r.Settings == settings })
	if i < 0 {
		recs = append(recs, claudeperm.Record{Settings: settings})
		i = len(recs) - 1
	}
	short := func(rules []string) string {
		var names []string
		for _, r := range rules {
			names = append(names, strings.TrimPrefix(r, mcpToolPrefix+"__"))
		}
		return strings.Join(names, ", ")
	}
	if opts.Action == "remove" {
		if len(recs[i].Added) == 0 {
			fmt.Fprintf(opts.Out, "memory tools: install added no rule to %s; nothing removed\n", settings)
			return nil
		}
		ch, err := claudeperm.Revoke(settings, recs[i].Added)
		if err != nil {
			return withHint(fmt.Errorf("permissions remove: %w", err), "take "+strings.Join(recs[i].Added, " and ")+" out of permissions.allow by hand")
		}
		recs[i].Added = nil
		if err := claudeperm.WriteRecords(recordPath, recs); err != nil {
			return fmt.Errorf("permissions remove: update %s: %w", recordPath, err)
		}
		if len(ch.Removed) == 0 {
			fmt.Fprintf(opts.Out, "memory tools: the rules install added are no longer in %s; nothing removed\n", settings)
			return nil
		}
		fmt.Fprintf(opts.Out, "memory tools: removed %s from permissions.allow in %s; the tools ask again before their first use\n", strings.Join(ch.Removed, ", "), settings)
		return nil
	}

	ch, err := claudeperm.Allow(settings, readOnlyTools)
	if err != nil {
		return withHint(fmt.Errorf("permissions install: %w", err),
			"the memory tools ask before their first use until "+strings.Join(readOnlyTools, " and ")+" are in permissions.allow")
	}
	for _, r := range ch.Added {
		if !slices.Contains(recs[i].Added, r) {
			recs[i].Added = append(recs[i].Added, r)
		}
	}
	if err := claudeperm.WriteRecords(recordPath, recs); err != nil {
		// The rules are in; without the record remove would not know them.
		return withHint(fmt.Errorf("permissions install: record what was added in %s: %w", recordPath, err),
			"take "+strings.Join(ch.Added, " and ")+" out of "+settings+" by hand when you uninstall")
	}
	var parts []string
	if len(ch.Added) > 0 {
		parts = append(parts, fmt.Sprintf("added %s to permissions.allow in %s (read-only; recall and remember still ask; `memhook permissions remove` takes them out)", strings.Join(ch.Added, ", "), settings))
	}
	if len(ch.Present) > 0 {
		parts = append(parts, fmt.Sprintf("%s already allowed by %s", short(ch.Present), settings))
	}
	if len(ch.Refused) > 0 {
		parts = append(parts, fmt.Sprintf("%s left to your deny or ask rule in %s", short(ch.Refused), settings))
	}
	fmt.Fprintf(opts.Out, "memory tools: %s\n", strings.Join(parts, "; "))
	return nil
}
