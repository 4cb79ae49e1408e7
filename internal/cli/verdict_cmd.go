package cli

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
	"github.com/spf13/cobra"
)

// VerdictOptions are the inputs of `memhook verdict`.
type VerdictOptions struct {
	*Factory
	Run, Verdict, Note, Project, Source string
}

func newCmdVerdict(f *Factory) *cobra.Command {
	opts := &VerdictOptions{Factory: f}
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
			return verdictRun(opts)
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
	root, err := opts.projectRoot(opts.Project)
	if err != nil {
		return err
	}
	v, _ := runrec.ParseVerdict(opts.Verdict) // checked by validate
	if err := opts.giveVerdict(opts.runJournal(root), root, opts.Run, v, opts.Note, opts.Source, opts.Now()); err != nil {
		return err
	}
	fmt.Fprintf(opts.Out, "verdict %s recorded for run %s\n", v, opts.Run)
	return nil
}

// RunsOptions are the inputs of `memhook runs`.
type RunsOptions struct {
	*Factory
	Project string
	Kind    string
	Limit   int
	JSON    bool
}

func newCmdRuns(f *Factory) *cobra.Command {
	opts := &RunsOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "runs",
		Short: "List the memory's run records with their verdicts; unjudged runs are unfinished",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runsRun(opts)
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
	root, err := opts.projectRoot(opts.Project)
	if err != nil {
		return err
	}
	st, err := runrec.OpenStore(opts.runJournal(root))
	if err != nil {
		return err
	}
	defer st.Close()
	all, err := st.Runs(runrec.Filter{Kind: opts.Kind})
	if err != nil {
		return err
	}
	sum := runrec.Summarize(all)
	shown := all
	if opts.Limit > 0 && len(shown) > opts.Limit {
		shown = shown[len(shown)-opts.Limit:]
	}
	for i := range shown {
		shown[i].Answer = "" // a shadow answer is for the judge, not for listings
	}
	if opts.JSON {
		return printObject(opts.Out, map[string]any{"summary": sum, "runs": shown}, nil)
	}
	fmt.Fprintf(opts.Out, "%d runs: %d good, %d bad, %d unfinished (no verdict), %d misses\n", sum.Runs, sum.Good, sum.Bad, sum.Unfinished, sum.Misses)
	for _, r := range shown {
		v := r.Verdict
		if v == "" {
			v = "unfinished"
		}
		var skills []string
		for _, s := range r.Skills {
			n := s.Name
			if s.Candidate != "" {
				n += "@" + s.Candidate
			}
			skills = append(skills, n)
		}
		fmt.Fprintf(opts.Out, "%s  %s  %-8s depth %d  %d calls  %5.1fs  %-10s %-10s %s  %s\n", r.ID, r.Time.Format("2006-01-02 15:04"),
			r.Kind, r.Depth, r.ModelCalls, r.Seconds, orDash(r.AnswerKind), v, strings.Join(skills, ","), clipLine(r.Request, 60))
	}
	return nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func clipLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}
