package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/longterm"

	"github.com/spf13/cobra"
)

// RollupDaysOptions are the inputs of `memhook rollup-days`.
type RollupDaysOptions struct {
	Out        io.Writer
	Now        func() time.Time
	LongChange func(dir, action string, fn func(*longterm.Store, *config.Effective) error) (*longterm.Store, error)
	Project    string
	NowDate    string // YYYY-MM-DD: build as if today were this day
	NoData     []string
	JSON       bool
}

func newCmdRollupDays(f *factory.Factory, runF func(*RollupDaysOptions) error) *cobra.Command {
	opts := &RollupDaysOptions{Out: f.Out, Now: f.Now, LongChange: f.LongChange}
	cmd := &cobra.Command{
		Use:   "rollup-days",
		Short: "Build week, month and year roll-ups of the daily distillates",
		Long: `rollup-days writes .claude/memory_short/rollups/week/YYYY-Www.md,
month/YYYY-MM.md and year/YYYY.md from the day files in daily/ and
daily/_archive/: headlines (the first Asked item of each session), decisions
and open items, each linked to its day. A week is built once its seven days
are past, a month once it is over and the weeks ending in it are built, a year
once all twelve of its months have a state. --no-data YYYY-MM[..YYYY-MM]
records months before the first recorded day as months without data, so
their year can be built. Running it again changes nothing; day files are
only read.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWith(runF, rollupDaysRun, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory inside the project")
	cmd.Flags().StringVar(&opts.NowDate, "now", "", "today's date for the run, YYYY-MM-DD (default: today)")
	cmd.Flags().StringSliceVar(&opts.NoData, "no-data", nil, "record months before the first recorded day as without data: YYYY-MM or YYYY-MM..YYYY-MM")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

// validate checks --now before the store is opened.
func (opts *RollupDaysOptions) validate() error {
	if opts.NowDate == "" {
		return nil
	}
	_, err := parseDateFlag("rollup-days", "now", opts.NowDate)
	return err
}

func rollupDaysRun(opts *RollupDaysOptions) error {
	if err := opts.validate(); err != nil {
		return err
	}
	now := opts.Now()
	if opts.NowDate != "" {
		d, _ := time.ParseInLocation(time.DateOnly, opts.NowDate, now.Location()) // checked above
		now = d.Add(12 * time.Hour)
	}
	var res *longterm.RollupResult
	s, err := opts.LongChange(opts.Project, "rollup-days", func(s *longterm.Store, _ *config.Effective) (err error) {
		res, err = s.RollupDaysNoData(opts.NoData, now)
		return err
	})
	if s == nil {
		return err
	}
	if err != nil {
		return fmt.Errorf("rollup-days: %w", err)
	}
	return printResult(opts.Out, opts.JSON, res, func(w io.Writer) { res.WriteText(w, s.RollupDir) })
}
