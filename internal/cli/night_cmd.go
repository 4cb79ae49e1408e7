package cli

import (
	"context"
	"io"
	"time"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/longterm/night"
	"github.com/spf13/cobra"
)

// NightOptions are the inputs of `memhook night`.
type NightOptions struct {
	Out, Err     io.Writer
	Now          func() time.Time
	Terminal     bool
	UseHome      func(home, what string) error
	ProjectRoots func(cmdName string, all bool, dir string) ([]string, error)
	NightBatch   func(roots []string, now time.Time, dryRun bool) night.Batch
	Project      string
	All          bool
	Date         string // --now YYYY-MM-DD
	DryRun       bool
	JSON         bool
	Home         string
}

func newCmdNight(f *factory.Factory, runF func(*NightOptions) error) *cobra.Command {
	opts := &NightOptions{Out: f.Out, Err: f.Err, Now: f.Now, Terminal: f.Terminal, UseHome: f.UseHome, ProjectRoots: f.ProjectRoots, NightBatch: f.NightBatch}
	cmd := &cobra.Command{
		Use:   "night [--project DIR | --all] [--now DATE] [--dry-run]",
		Short: "Consolidate long-term memory: roll-ups, index, graph, lint, commits; compile days with a model when configured",
		Long: `night runs one idempotent pass per project and day. Without a model it rolls
up closed weeks, months and years, rebuilds the graph and index.md, runs lint
(findings kept for doctor), checks CORE.md's cap, lists closed days ready to
compile and commits edits found uncommitted. With night.model = "claude" it
also compiles ready days into wiki/_private/ digests and archives them, writes
dated facts the person stated that day, and proposes compiled truths — within
night.max_calls and night.max_tokens, with a per-day cache so a rerun costs
nothing. Each project's run adds a line to the desk's night.log.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWith(runF, nightRun, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", "", "a directory inside the project (default: the current one)")
	cmd.Flags().BoolVar(&opts.All, "all", false, "every project registered with the org desk")
	cmd.Flags().StringVar(&opts.Date, "now", "", "the night's date, YYYY-MM-DD (default today); that day is never closed")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "say what would run; write nothing and call no model")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the reports as JSON")
	cmd.Flags().StringVar(&opts.Home, "home", "", "the desk folder (default $CEREBRO_HOME or ~/cerebro)")
	cmd.AddCommand(newCmdNightForget(f, nil))
	return cmd
}

// validate checks the flags before anything is read or created.
func (opts *NightOptions) validate() error {
	if opts.All && opts.Project != "" {
		return usagef("pass one of them", "night: --all and --project exclude each other")
	}
	if opts.Date != "" {
		if _, err := parseDateFlag("night", "now", opts.Date); err != nil {
			return err
		}
	}
	return nil
}

func nightRun(opts *NightOptions) error {
	if err := opts.validate(); err != nil {
		return err
	}
	if err := opts.UseHome(opts.Home, "night"); err != nil {
		return err
	}
	now := opts.Now()
	if opts.Date != "" {
		d, _ := parseDateFlag("night", "now", opts.Date) // checked by validate
		now = night.At(d)
	}
	roots, err := opts.ProjectRoots("night", opts.All, opts.Project)
	if err != nil {
		return err
	}
	b := opts.NightBatch(roots, now, opts.DryRun)
	b.PrintTo(opts.Out, opts.Err, opts.All, opts.Terminal, opts.JSON)
	done := b.Run(context.Background())
	if opts.JSON {
		if opts.All {
			return writeJSON(opts.Out, done.Reports)
		}
		return writeJSON(opts.Out, done.Reports[0])
	}
	if done.Provider {
		night.WriteProviderFailure(opts.Err)
	}
	return exitIf(nil, done.Troubled())
}
