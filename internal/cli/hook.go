package cli

import (
	"strings"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/hook"
	"github.com/spf13/cobra"
)

func newCmdHook(f *factory.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "hook EVENT",
		Short: "Handle a Claude Code hook event (reads the hook JSON on stdin)",
		Long:  "Handle a Claude Code hook event. Always exits 0: errors go to the log in the state dir.",
		Args:  cobra.ExactArgs(1),
		// Claude Code calls it, people never do: kept out of --help.
		Hidden: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			runHook(f, args[0])
			return nil
		},
	}
}

// hookFastPath runs `memhook hook EVENT` without building the command
// tree: a hook is one process per event on every turn, and building every
// cobra command costs about half as much again as a Stop's own work.
// Anything else (flags, help, a wrong argument count) goes through cobra.
func hookFastPath(f *factory.Factory, args []string) bool {
	if len(args) != 2 || args[0] != "hook" || strings.HasPrefix(args[1], "-") {
		return false
	}
	runHook(f, args[1])
	return true
}

// runHook runs the event's handler through [hook.Run], which decodes,
// logs, keeps the deadline and prints. The command has no flags: it takes
// the process as the factory holds it.
func runHook(f *factory.Factory, event string) {
	p := hook.Process{In: f.In, Out: f.Out, Getenv: f.Getenv, Now: f.Now, Paths: f.Paths, Config: f.Config, TakeHandOver: true}
	hook.Run(p, event, f.HookHandlers())
}
