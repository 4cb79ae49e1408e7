package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/recall/tables"
	"github.com/spf13/cobra"
)

// TablesOptions are the inputs of `memhook tables` and `tables repair`.
type TablesOptions struct {
	Out, Err io.Writer
	Now      func() time.Time
	OpenBox  func(dir string) (*blackbox.Box, func(), error)
	Project  string
	JSON     bool
}

func newCmdTables(f *factory.Factory) *cobra.Command {
	opts := &TablesOptions{Out: f.Out, Err: f.Err, Now: f.Now, OpenBox: f.OpenBox}
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
	repairOpts := &TablesOptions{Out: f.Out, Err: f.Err, Now: f.Now, OpenBox: f.OpenBox}
	repair := &cobra.Command{
		Use:   "repair",
		Short: "Move journal ops that cannot apply out of the tables journal and rebuild the cache",
		Long: `Rebuild the relational store's cache from its journal
(.claude/memory_long/tables/journal.jsonl) and move every line that cannot
apply — a kind named like a column every row has, a line that is not an op —
into journal.jsonl.rejected beside it, with the reason. Nothing is deleted.
Prints what was kept and what was moved.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return tablesRepairRun(repairOpts)
		},
	}
	repair.Flags().StringVar(&repairOpts.Project, "project", ".", "a directory of the project")
	cmd.AddCommand(repair)
	return cmd
}

func tablesRepairRun(opts *TablesOptions) error {
	box, done, err := opts.OpenBox(opts.Project)
	if err != nil {
		return err
	}
	defer done()
	res, err := box.Tables.Repair(opts.Now())
	if err != nil {
		return fmt.Errorf("tables repair: %w", err)
	}
	return writeJSON(opts.Out, res)
}

func tablesRun(opts *TablesOptions) error {
	box, done, err := opts.OpenBox(opts.Project)
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
			ts = []tables.TableInfo{}
		}
		return writeJSON(opts.Out, ts)
	}
	return tables.WriteText(opts.Out, ts)
}
