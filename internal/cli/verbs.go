package cli

import (
	"strings"

	"github.com/spf13/cobra"
)

// verb is one sub-command of a group: its usage line (its name first),
// what it does, and the arguments it takes (nil: none).
type verb struct {
	use, short string
	args       cobra.PositionalArgs
}

// addVerbs gives parent one sub-command per verb. flags (when not nil)
// declares a verb's flags; running one calls run with its name and
// arguments. The verbs of a group share one options struct, as only one
// of them runs, so a flag two verbs declare must have one default.
func addVerbs(parent *cobra.Command, verbs []verb, flags func(c *cobra.Command, name string), run func(name string, args []string) error) *cobra.Command {
	for _, v := range verbs {
		name := strings.Fields(v.use)[0]
		args := v.args
		if args == nil {
			args = cobra.NoArgs
		}
		c := &cobra.Command{Use: v.use, Short: v.short, Args: args,
			RunE: func(cmd *cobra.Command, a []string) error { return run(name, a) }}
		if flags != nil {
			flags(c, name)
		}
		parent.AddCommand(c)
	}
	return parent
}
