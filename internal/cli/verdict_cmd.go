package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
	"github.com/spf13/cobra"
)

// VerdictOptions are the inputs of `memhook verdict`.
type VerdictOptions struct {
	Out                                 io.Writer
	Now                                 func() time.Time
	ProjectRoot                         func(dir string) (string, error)
	GiveVerdict                         func(root, id, verdict, note, source string, now time.Time) error
	Run, Verdict, Note, Project, Source string
}

func newCmdVerdict(f *factory.Factory, runF func(*VerdictOptions) error) *cobra.Command {
	opts := &VerdictOptions{Out: f.Out, Now: f.Now, ProjectRoot: f.ProjectRoot, GiveVerdict: f.GiveVerdict}
	cmd := &cobra.Command{
		Use:   "verdict RUN_ID good|bad [WHY...]",
		Short: "Judge a memory run from outside: good or bad (a run without a verdict is unfinished)",
		Long: `Record the verdict of the person or calling model on one run (recall answers
carry their run_id). Self-assessment is never a verdict: a run nobody judged
stays unfinished and counts as neither success nor failure.`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Run, opts.Verdict = args[0], args[1]
			if opts.Note == "" {
				opts.Note = strings.Join(args[2:], " ") // the slash command passes its words as they come
			}
			return runWith(runF, verdictRun, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Note, "note", "", "why")
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project")
	cmd.Flags().StringVar(&opts.Source, "source", "person", "who judges: person or caller")
	return cmd
}

// validate checks the verdict and --source before the records are opened.
func (opts *VerdictOptions) validate() error {
	if err := checkChoice("verdict", "source", opts.Source, []string{"person", "caller"}); err != nil {
		return err
	}
	if _, err := runrec.ParseVerdict(opts.Verdict); err != nil {
		return checkArgChoice("verdict", "verdict", opts.Verdict, []string{runrec.Good, runrec.Bad})
	}
	return nil
}

func verdictRun(opts *VerdictOptions) error {
	if err := opts.validate(); err != nil {
		return err
	}
	root, err := opts.ProjectRoot(opts.Project)
	if err != nil {
		return err
	}
	v, _ := runrec.ParseVerdict(opts.Verdict) // checked by validate
	if err := opts.GiveVerdict(root, opts.Run, v, opts.Note, opts.Source, opts.Now()); err != nil {
		return err
	}
	fmt.Fprintf(opts.Out, "verdict %s recorded for run %s\n", v, opts.Run)
	return nil
}

// RunsOptions are the inputs of `memhook runs`.
type RunsOptions struct {
	Out         io.Writer
	ProjectRoot func(dir string) (string, error)
	ListRuns    func(root string, filter runrec.Filter, limit int) (runrec.Listing, error)
	Project     string
	Kind        string
	Limit       int
	JSON        bool
}

func newCmdRuns(f *factory.Factory, runF func(*RunsOptions) error) *cobra.Command {
	opts := &RunsOptions{Out: f.Out, ProjectRoot: f.ProjectRoot, ListRuns: f.ListRuns}
	cmd := &cobra.Command{
		Use:   "runs",
		Short: "List the memory's run records with their verdicts; unjudged runs are unfinished",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWith(runF, runsRun, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project")
	cmd.Flags().StringVar(&opts.Kind, "kind", "", "only this kind: recall, remember, relearn, turn, shadow")
	cmd.Flags().IntVar(&opts.Limit, "limit", 20, "at most this many runs, newest (0: all)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

// validate checks --kind and --limit before the records are opened.
func (opts *RunsOptions) validate() error {
	if opts.Kind != "" {
		kinds := []string{runrec.KindRecall, runrec.KindRemember, runrec.KindRelearn, runrec.KindTurn, runrec.KindShadow}
		if err := checkChoice("runs", "kind", opts.Kind, kinds); err != nil {
			return err
		}
	}
	return checkMinFlag("runs", "limit", opts.Limit, 0)
}

func runsRun(opts *RunsOptions) error {
	if err := opts.validate(); err != nil {
		return err
	}
	root, err := opts.ProjectRoot(opts.Project)
	if err != nil {
		return err
	}
	l, err := opts.ListRuns(root, runrec.Filter{Kind: opts.Kind}, opts.Limit)
	if err != nil {
		return err
	}
	return printResult(opts.Out, opts.JSON, l, func(io.Writer) { l.WriteText(opts.Out) })
}
