package cli

import (
	"github.com/spf13/cobra"
)

// action is a sub-command that takes no arguments and only selects what
// its parent's run function does.
type action struct{ name, short string }

// actionCommands makes one sub-command per action, each with the --project
// flag bound to dir; running one calls run with the action's name.
func actionCommands(actions []action, dir *string, run func(action string) error) []*cobra.Command {
	cmds := make([]*cobra.Command, 0, len(actions))
	for _, a := range actions {
		name := a.name
		cmds = append(cmds, &cobra.Command{
			Use: name, Short: a.short, Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error { return run(name) },
		})
		cmds[len(cmds)-1].Flags().StringVar(dir, "project", ".", "a directory inside the project")
	}
	return cmds
}
