package cli

import (
	"fmt"

	"github.com/cerebro-mem/cerebro/internal/longterm/planfact"
	"github.com/spf13/cobra"
)

// PlanFactOptions are the inputs of `memhook planfact check|set`.
type PlanFactOptions struct {
	*Factory
	Action  string // check or set
	Project string
	JSON    bool
	Field   string
	Values  []string
}

func newCmdPlanFact(f *Factory) *cobra.Command {
	opts := &PlanFactOptions{Factory: f}
	run := func() error {
		return planFactRun(opts)
	}
	cmd := &cobra.Command{Use: "planfact", Short: "Check or edit the project's План-факт.md"}
	check := &cobra.Command{
		Use: "check", Short: "Validate the plan-fact contract (exit 1 on problems)", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { opts.Action = "check"; return run() },
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
			return run()
		},
	}
	for _, c := range []*cobra.Command{check, set} {
		c.Flags().StringVar(&opts.Project, "project", ".", "a directory inside the project")
		cmd.AddCommand(c)
	}
	return cmd
}

func planFactRun(opts *PlanFactOptions) error {
	s, root, err := opts.longStore(opts.Project)
	if err != nil {
		return err
	}
	if opts.Action == "set" {
		var rest []planfact.Problem
		err := opts.memoryCommit(s, root, "planfact set "+opts.Field, func() (err error) {
			rest, err = s.PlanFactSet(opts.Field, opts.Values, opts.Now())
			return err
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(opts.Out, "%s: %s set\n", planfact.FileName, opts.Field)
		for _, p := range rest {
			fmt.Fprintf(opts.Err, "memhook: warning: %s:%s\n", planfact.FileName, p)
		}
		return nil
	}
	_, probs, err := s.PlanFactCheck()
	if err != nil {
		return err
	}
	if opts.JSON {
		if probs == nil {
			probs = []planfact.Problem{}
		}
		if err := indentJSON(opts.Out, probs); err != nil {
			return err
		}
	} else if len(probs) == 0 {
		fmt.Fprintf(opts.Out, "%s: the contract holds\n", planfact.FileName)
	} else {
		for _, p := range probs {
			fmt.Fprintf(opts.Out, "%s:%d: %s\n", planfact.FileName, p.Line, messageOf(p))
		}
	}
	if len(probs) > 0 {
		return &exitError{1}
	}
	return nil
}

func messageOf(p planfact.Problem) string {
	if p.Field == "" {
		return p.Message
	}
	return p.Field + ": " + p.Message
}
