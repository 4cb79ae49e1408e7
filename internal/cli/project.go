package cli

import (
	"fmt"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/spf13/cobra"
)

// projectRoot maps a directory given on the command line or by a hook to
// its project. Anything under the desk ($CEREBRO_HOME) is the desk itself,
// even when the desk sits inside another repository.
func (f *Factory) projectRoot(dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	root, err := project.RootFor(dir, f.Paths.Home)
	if err != nil {
		return "", withHint(fmt.Errorf("find project: %w", err), "pass --project with an existing directory")
	}
	return root, nil
}

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
