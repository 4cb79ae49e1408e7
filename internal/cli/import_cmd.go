package cli

import (
	"context"
	"io"
	"os"
	"os/signal"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/shortterm/importer"
	"github.com/spf13/cobra"
)

// ImportOptions are the inputs of `memhook import`.
type ImportOptions struct {
	Out       io.Writer
	Import    func(ctx context.Context, req factory.ImportRequest) (*importer.Report, error)
	From      string
	Project   string
	Since     string
	Archive   string
	DryRun    bool
	Distiller string
	JSON      bool
	// Context cancels the import (Ctrl-C); nil is one that never ends.
	Context context.Context
}

func newCmdImport(f *factory.Factory, runF func(*ImportOptions) error) *cobra.Command {
	opts := &ImportOptions{Out: f.Out, Import: f.Import}
	cmd := &cobra.Command{
		Use:   "import",
		Short: "Turn the sessions Claude Code already kept into short-term memory",
		Long: `Read Claude Code's own transcripts (~/.claude/projects: every session, its
subagents, compactions and titles) and write, into each session's project,
the daily sections its hooks would have written had cerebro been installed
then: the same distillate, dated by the session's own clock, oldest first.
No model is called (with --distiller claude, the claude distiller runs
within its daily budget).

Each imported project is registered on the desk and its search index
brought up to date. A session is imported once: a second run, or a run
after the hooks captured a session, adds nothing, and a run that was
stopped goes on where it stopped. Memory goes only into repositories
(a folder holding .git) other than your home and the temporary folder; a
plain folder only when named with --project; a project whose folder is
gone only into the --archive folder you name. --dry-run prints what would
be written where.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			opts.Context = ctx
			return runWith(runF, importRun, opts)
		},
	}
	cmd.Flags().StringVar(&opts.From, "from", "", "Claude Code's projects folder (default $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects)")
	cmd.Flags().StringVar(&opts.Project, "project", "", "import only the sessions of the project holding this folder")
	cmd.Flags().StringVar(&opts.Since, "since", "", "only sessions active on or after this day (YYYY-MM-DD)")
	cmd.Flags().StringVar(&opts.Archive, "archive", "", "a folder for the memory of projects whose folder is gone (one folder per project)")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "write nothing; print what would be written where")
	cmd.Flags().StringVar(&opts.Distiller, "distiller", "extractive", "extractive (no model), or claude where the settings choose it, within its budget")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the report as JSON")
	return cmd
}

func importRun(opts *ImportOptions) error {
	req := factory.ImportRequest{From: opts.From, Project: opts.Project, Archive: opts.Archive, DryRun: opts.DryRun}
	if err := checkChoice("import", "distiller", opts.Distiller, []string{"extractive", "claude"}); err != nil {
		return err
	}
	req.Claude = opts.Distiller == "claude"
	if opts.Since != "" {
		since, err := parseDateFlag("import", "since", opts.Since)
		if err != nil {
			return err
		}
		req.Since = since
	}
	ctx := opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	rep, err := opts.Import(ctx, req)
	if rep == nil {
		return err
	}
	if perr := printResult(opts.Out, opts.JSON, rep, rep.WriteText); perr != nil {
		return perr
	}
	return err
}
