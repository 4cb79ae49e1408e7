package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// TablesOptions are the inputs of `memhook tables`.
type TablesOptions struct {
	*Factory
	Project string
	JSON    bool
}

func newCmdTables(f *Factory, runF func(*TablesOptions) error) *cobra.Command {
	opts := &TablesOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "tables",
		Short: "List the relational store's tables, their kinds and row counts",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return tablesRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

func tablesRun(opts *TablesOptions) error {
	box, done, err := opts.openBox(opts.Project)
	if err != nil {
		return err
	}
	defer done()
	ts, err := box.Tables.Describe()
	if err != nil {
		return err
	}
	if opts.JSON {
		if ts == nil {
			return printObject(opts.Out, []any{}, nil)
		}
		return printObject(opts.Out, ts, nil)
	}
	if len(ts) == 0 {
		fmt.Fprintln(opts.Out, "no tables yet")
	}
	for _, t := range ts {
		switch t.Shape {
		case "list":
			fmt.Fprintf(opts.Out, "%s  list of %s.%s  %d rows\n", t.Name, t.Parent, t.ParentKind, t.Rows)
		default:
			fmt.Fprintf(opts.Out, "%s  kinds: %s  %d rows\n", t.Name, strings.Join(t.Kinds, ", "), t.Rows)
		}
	}
	return nil
}
