package cli

import (
	"github.com/spf13/cobra"
)

func newRootCmd(f *Factory) *cobra.Command {
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
	root.AddCommand(
		newCmdConfig(f, nil),
		newCmdHook(f, nil),
		newCmdRemember(f, nil),
		newCmdRecall(f, nil),
		newCmdDeny(f, nil),
		newCmdRelearn(f, nil),
		newCmdGraph(f, nil),
		newCmdSkill(f, nil),
		newCmdTables(f, nil),
		newCmdIndex(f, nil),
		newCmdSearch(f, nil),
		newCmdGet(f, nil),
		newCmdRollup(f, nil),
		newCmdRegistry(f, nil),
		newCmdSchedule(f, nil),
		newCmdFlush(f, nil),
		newCmdDoctor(f, nil),
		newCmdLong(f, nil),
		newCmdPlanFact(f, nil),
		newCmdWiki(f, nil),
		newCmdIngest(f, nil),
		newCmdCompile(f, nil),
		newCmdFact(f, nil),
		newCmdTruth(f, nil),
		newCmdCore(f, nil),
		newCmdRollupDays(f, nil),
		newCmdLint(f, nil),
		newCmdOrg(f),
	)
	return root
}
