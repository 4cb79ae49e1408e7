package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/org/rollup"
	"github.com/spf13/cobra"
)

// RollupOptions are the inputs of `memhook rollup`.
type RollupOptions struct {
	Out     io.Writer
	Now     func() time.Time
	Warn    func(msg string)
	UseHome func(home, what string) error
	Rollup  func(today time.Time, withGit bool) (*rollup.Report, error)
	Paths   *config.Paths // the factory's: --home (UseHome) changes the desk
	WithGit bool
	Date    string // --now YYYY-MM-DD: the dashboard's date instead of today
	Print   bool   // print the existing dashboard without rebuilding it
	Home    string // --home: the desk, overriding $CEREBRO_HOME (scheduled runs pass it)
}

func newCmdRollup(f *factory.Factory, runF func(*RollupOptions) error) *cobra.Command {
	opts := &RollupOptions{Out: f.Out, Now: f.Now, Warn: f.Warn, UseHome: f.UseHome, Rollup: f.Rollup, Paths: &f.Paths}
	cmd := &cobra.Command{
		Use:   "rollup",
		Short: "Rebuild the org dashboard (rollup.md) from every registered project",
		Long: `Reads the desk's registry.json and, for every registered project, only its
.claude/memory_long/План-факт.md and the timestamps of its memory files, then
writes rollup.md, cache/<id>.json and a line of rollup.log beside the registry.
Projects are only read. The same inputs and --now give the same bytes.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWith(runF, rollupRun, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.WithGit, "with-git", false, "add repository activity (last commit, recent commits) read through go-git")
	cmd.Flags().StringVar(&opts.Date, "now", "", "date of the dashboard, YYYY-MM-DD (default today)")
	cmd.Flags().BoolVar(&opts.Print, "print", false, "print the current dashboard without rebuilding it")
	cmd.Flags().StringVar(&opts.Home, "home", "", "the desk folder (default $CEREBRO_HOME or ~/cerebro)")
	return cmd
}

// validate checks --now before the desk or the org vault is touched.
func (opts *RollupOptions) validate() error {
	if opts.Date == "" {
		return nil
	}
	_, err := parseDateFlag("rollup", "now", opts.Date)
	return err
}

func rollupRun(opts *RollupOptions) error {
	if err := opts.validate(); err != nil {
		return err
	}
	if err := opts.UseHome(opts.Home, "rollup"); err != nil {
		return err
	}
	dir := opts.Paths.DeskShortDir()
	if opts.Print {
		data, err := rollup.ReadDashboard(dir)
		if errors.Is(err, rollup.ErrNoDashboard) {
			return hint.Wrap(err, "build it with `memhook rollup`")
		}
		if err != nil {
			return err
		}
		_, err = opts.Out.Write(data)
		return err
	}
	today := opts.Now()
	if opts.Date != "" {
		today, _ = parseDateFlag("rollup", "now", opts.Date) // checked above
	}
	r, err := opts.Rollup(today, opts.WithGit)
	if err != nil {
		return err
	}
	for _, w := range r.RegistryProblems() {
		opts.Warn(w)
	}
	fmt.Fprintln(opts.Out, r.Summary(filepath.Join(dir, rollup.DashboardFile)))
	return nil
}
