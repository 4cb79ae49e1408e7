package cli

import (
	"fmt"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/spf13/cobra"
)

func newRootCmd(f *factory.Factory) *cobra.Command {
	root := &cobra.Command{
		Use:   "memhook",
		Short: "cerebro's memory helper for Claude Code",
		Long: `memhook is the helper binary of cerebro, the multi-level memory plugin for
Claude Code. Claude Code's hooks call it to keep short-term memory; its other
commands manage long-term memory, search, the org desk and the skills.`,
		Version:       Version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.CompletionOptions.DisableDefaultCmd = true
	for _, g := range commandGroups(f) {
		root.AddGroup(&cobra.Group{ID: g.id, Title: g.title})
		for _, c := range g.cmds {
			c.GroupID = g.id
			root.AddCommand(c)
		}
	}
	root.SetHelpCommandGroupID("setup")
	root.SetFlagErrorFunc(flagError)
	checkUsage(root)
	return root
}

// runAgain runs memhook with args inside this process, on f's streams:
// the command a slash command names, each daily job.
func runAgain(f *factory.Factory, args []string) error {
	root := newRootCmd(f)
	root.SetArgs(args)
	root.SetIn(f.In)
	root.SetOut(f.Out)
	root.SetErr(f.Err)
	return root.Execute()
}

// newCmdVersion answers `memhook version`, which people type as often as
// --version.
func newCmdVersion(f *factory.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print memhook's version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprintf(f.Out, "memhook version %s\n", Version)
			return err
		},
	}
}

// commandName is the command's path without "memhook", for messages that
// Main already prefixes with "memhook: error:".
func commandName(c *cobra.Command) string {
	if !c.HasParent() {
		return c.Name()
	}
	return strings.TrimPrefix(c.CommandPath(), c.Root().Name()+" ")
}

// checkUsage makes a wrong number of arguments name the command and show
// its usage line: cobra's own message ("accepts 1 arg(s), received 0", or
// "unknown command" for an argument a command does not take) says
// neither. A group such as `memhook long` fails unless a sub-command
// follows, where cobra would print help and exit 0 even after a typo, and
// a mistyped command gets a one-line error with the suggestion as a hint.
func checkUsage(c *cobra.Command) {
	var subs []string
	for _, sub := range c.Commands() {
		checkUsage(sub)
		subs = append(subs, sub.Name())
	}
	if !c.Runnable() && c.HasSubCommands() {
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(cmd *cobra.Command, args []string) error {
			hint := "see `" + cmd.CommandPath() + " --help`"
			switch {
			case len(args) == 0 && !cmd.HasParent():
				return cmd.Help()
			case len(args) == 0:
				return usageErr(fmt.Errorf("%s: missing command (one of: %s)", commandName(cmd), strings.Join(subs, ", ")), hint)
			}
			cmd.SuggestionsMinimumDistance = 2
			if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
				hint = "did you mean `" + cmd.CommandPath() + " " + s[0] + "`?"
			}
			if !cmd.HasParent() {
				return usageErr(fmt.Errorf("unknown command %q", args[0]), hint)
			}
			return usageErr(fmt.Errorf("%s: unknown command %q (one of: %s)", commandName(cmd), args[0], strings.Join(subs, ", ")), hint)
		}
		return
	}
	check := c.Args
	if check == nil {
		return
	}
	c.Args = func(cmd *cobra.Command, args []string) error {
		err := check(cmd, args)
		if err == nil {
			return nil
		}
		if len(args) > 0 && check(cmd, nil) == nil && strings.HasPrefix(err.Error(), "unknown command") {
			err = fmt.Errorf("takes no arguments, got %q", args[0])
		}
		return usageErr(fmt.Errorf("%s: %w", commandName(cmd), err), "usage: "+cmd.UseLine())
	}
}

// commandGroup is one heading of `memhook --help` and its commands.
type commandGroup struct {
	id, title string
	cmds      []*cobra.Command
}

// commandGroups lists every top-level command of `memhook --help` by
// memory level, the order a newcomer meets them in (docs/architecture.md
// has the same groups). Each command is built with runF nil: it runs its
// run function (tests pass a runF to see the options a line fills).
func commandGroups(f *factory.Factory) []commandGroup {
	return []commandGroup{
		{"short", "Short-term memory (Q1, the hooks' side):", []*cobra.Command{newCmdHook(f), newCmdFlush(f, nil), newCmdImport(f, nil), newCmdForget(f, nil), newCmdLessons(f, nil), newCmdSlash(f)}},
		{"long", "Long-term memory (Q2):", []*cobra.Command{newCmdLong(f), newCmdPlanFact(f), newCmdWiki(f), newCmdIngest(f, nil),
			newCmdCompile(f), newCmdFact(f, nil), newCmdTruth(f), newCmdCore(f, nil), newCmdRollupDays(f, nil), newCmdLint(f, nil), newCmdNight(f, nil)}},
		{"org", "The org desk (Q3, Q4):", []*cobra.Command{newCmdOrg(f), newCmdRollup(f, nil), newCmdRegistry(f), newCmdRegister(f, nil), newCmdSchedule(f)}},
		{"recall", "Search and recall:", []*cobra.Command{newCmdSearch(f, nil), newCmdGet(f, nil), newCmdIndex(f, nil), newCmdRecall(f, nil),
			newCmdRemember(f, nil), newCmdDeny(f, nil), newCmdRelearn(f, nil), newCmdGraph(f), newCmdTables(f), newCmdMCP(f)}},
		{"skills", "Skills:", []*cobra.Command{newCmdSkill(f), newCmdVerdict(f, nil), newCmdRuns(f, nil), newCmdEvolve(f, nil), newCmdInstruction(f)}},
		{"setup", "Set-up and inspection:", []*cobra.Command{newCmdConfig(f, nil), newCmdDoctor(f, nil), newCmdPermissions(f), newCmdServe(f), newCmdCommands(f), newCmdVersion(f)}},
	}
}
