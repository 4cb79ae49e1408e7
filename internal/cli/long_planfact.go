package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/planfact"
	"github.com/spf13/cobra"
)

// PlanFactOptions are the inputs of `memhook planfact check|set`.
type PlanFactOptions struct {
	Out        io.Writer
	Now        func() time.Time
	Warn       func(msg string)
	LongStore  func(dir string) (*longterm.Store, string, error)
	LongChange func(dir, action string, fn func(*longterm.Store, *config.Effective) error) (*longterm.Store, error)
	Action     string // check or set
	Project    string
	JSON       bool
	Field      string
	Values     []string
}

func newCmdPlanFact(f *factory.Factory) *cobra.Command {
	opts := &PlanFactOptions{Out: f.Out, Now: f.Now, Warn: f.Warn, LongStore: f.LongStore, LongChange: f.LongChange}
	cmd := &cobra.Command{Use: "planfact", Short: "Check or edit the project's План-факт.md"}
	check := &cobra.Command{
		Use: "check", Short: "Validate the plan-fact contract (exit 1 on problems)", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { opts.Action = "check"; return planFactRun(opts) },
	}
	check.Flags().BoolVar(&opts.JSON, "json", false, "print the problems as JSON")
	set := &cobra.Command{
		Use:   "set FIELD VALUE...",
		Short: "Set one contract field (blockers takes several values; none clears it)",
		Long: `set changes one frontmatter field of План-факт.md, sets updated to today, and
writes the file atomically. Fields: type project stage plan_status status next
blockers summary updated completed. plan_status: on_track|at_risk|blocked|done;
status: active|paused|completed (completed also fills the completed date).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Action, opts.Field, opts.Values = "set", args[0], args[1:]
			return planFactRun(opts)
		},
	}
	addWithProject(cmd, &opts.Project, check, set)
	return cmd
}

func planFactRun(opts *PlanFactOptions) error {
	if opts.Action == "set" {
		var rest []planfact.Problem
		_, err := opts.LongChange(opts.Project, "planfact set "+opts.Field, func(s *longterm.Store, _ *config.Effective) (err error) {
			rest, err = s.PlanFactSet(opts.Field, opts.Values, opts.Now())
			return err
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(opts.Out, "%s: %s set\n", planfact.FileName, opts.Field)
		for _, p := range rest {
			opts.Warn(planfact.FileName + ":" + p.String())
		}
		return nil
	}
	s, _, err := opts.LongStore(opts.Project)
	if err != nil {
		return err
	}
	_, probs, err := s.PlanFactCheck()
	if err != nil {
		return err
	}
	if opts.JSON {
		if probs == nil {
			probs = []planfact.Problem{}
		}
	}
	return exitIf(printResult(opts.Out, opts.JSON, probs, func(w io.Writer) { planfact.WriteProblems(w, probs) }), len(probs) > 0)
}
