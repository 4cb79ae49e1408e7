package cli

import (
	"fmt"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/recall/tables"

	"github.com/spf13/cobra"
)

// TablesOptions are the inputs of `memhook tables`.
type TablesOptions struct {
	*Factory
	Project string
	JSON    bool
}

func newCmdTables(f *Factory) *cobra.Command {
	opts := &TablesOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "tables",
		Short: "List the relational store's tables, their kinds and row counts",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return tablesRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	cmd.AddCommand(newCmdTablesRepair(f))
	return cmd
}

// TablesRepairOptions are the inputs of `memhook tables repair`.
type TablesRepairOptions struct {
	*Factory
	Project string
}

func newCmdTablesRepair(f *Factory) *cobra.Command {
	opts := &TablesRepairOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "repair",
		Short: "Move journal ops that cannot apply out of the tables journal and rebuild the cache",
		Long: `Rebuild the relational store's cache from its journal
(.claude/memory_long/tables/journal.jsonl) and move every line that cannot
apply — a kind named like a column every row has, a line that is not an op —
into journal.jsonl.rejected beside it, with the reason. Nothing is deleted.
Prints what was kept and what was moved.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return tablesRepairRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project")
	return cmd
}

func tablesRepairRun(opts *TablesRepairOptions) error {
	box, done, err := opts.openBox(opts.Project)
	if err != nil {
		return err
	}
	defer done()
	res, err := box.Tables.Repair(opts.Now())
	if err != nil {
		return fmt.Errorf("tables repair: %w", err)
	}
	if res.Removed == nil {
		res.Removed = []tables.Skipped{}
	}
	return printObject(opts.Out, res, nil)
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
	if sk, err := box.Tables.Skipped(); err == nil && len(sk) > 0 {
		fmt.Fprintf(opts.Err, "%d journal ops could not apply and were skipped (first: %s); run `memhook tables repair` to move them out of the journal\n", len(sk), sk[0].Error)
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
