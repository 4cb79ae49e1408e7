package cli

import (
	"io"

	"github.com/spf13/cobra"
)

// printEscaped is printResult for the commands whose JSON has always had
// its HTML characters escaped (indentJSON); their output stays the same.
func printEscaped(w io.Writer, asJSON bool, v any, text func(io.Writer)) error {
	if asJSON {
		return indentJSON(w, v)
	}
	text(w)
	return nil
}

// exitIf ends a checker's command with exit 1 when failed, once its
// findings are printed (err is the printing's): a lint or a sync reports
// everything it found and still fails a script that runs it.
func exitIf(err error, failed bool) error {
	if err == nil && failed {
		return &exitError{code: 1}
	}
	return err
}

// addWithProject adds subs to parent, each with --project bound to dir:
// the sub-commands of one long-term family share one options value.
func addWithProject(parent *cobra.Command, dir *string, subs ...*cobra.Command) {
	for _, c := range subs {
		c.Flags().StringVar(dir, "project", ".", "a directory inside the project")
		parent.AddCommand(c)
	}
}
