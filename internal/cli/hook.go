package cli

import (
	"strings"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/hook"
	"github.com/spf13/cobra"
)

// HookOptions are the inputs of `memhook hook <event>`: the process as
// hook.Run takes it, the factory's handlers, and the event.
type HookOptions struct {
	Process  hook.Process
	Handlers func() map[string]hook.Handler // built only when the event runs
	Event    string
}

// hookOptions are what `memhook hook` uses of f.
func hookOptions(f *factory.Factory) *HookOptions {
	return &HookOptions{Handlers: f.HookHandlers,
		Process: hook.Process{In: f.In, Out: f.Out, Getenv: f.Getenv, Now: f.Now, Paths: f.Paths, Config: f.Config, TakeHandOver: true}}
}

func newCmdHook(f *factory.Factory) *cobra.Command {
	opts := hookOptions(f)
	return &cobra.Command{
		Use:   "hook EVENT",
		Short: "Handle a Claude Code hook event (reads the hook JSON on stdin)",
		Long:  "Handle a Claude Code hook event. Always exits 0: errors go to the log in the state dir.",
		Args:  cobra.ExactArgs(1),
		// Claude Code calls it, people never do: kept out of --help.
		Hidden: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Event = args[0]
			hookRunMain(opts)
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
	opts := hookOptions(f)
	opts.Event = args[1]
	hookRunMain(opts)
	return true
}

// hookRunMain runs the event's handler through [hook.Run], which decodes,
// logs, keeps the deadline and prints.
func hookRunMain(opts *HookOptions) {
	hook.Run(opts.Process, opts.Event, opts.Handlers())
}
