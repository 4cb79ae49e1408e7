package cli

import (
	"context"
	"io"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"

	"github.com/spf13/cobra"
)

// RecallOptions are the inputs of `memhook recall`.
type RecallOptions struct {
	In     io.Reader
	Out    io.Writer
	Recall func(ctx context.Context, dir string, raw blackbox.Raw) (any, error)
	Flags  requestFlags
	Chain  bool
	Limit  int
	Scope  string
	Args   []string
	cmd    *cobra.Command
}

func newCmdRecall(f *factory.Factory, runF func(*RecallOptions) error) *cobra.Command {
	opts := &RecallOptions{In: f.In, Out: f.Out, Recall: f.Recall}
	cmd := &cobra.Command{
		Use:   "recall [QUERY...]",
		Short: "Retrieve from memory, climbing the depth ladder; prints the answer object (docs/blackbox.md)",
		Long: `Retrieve from memory. The ladder climbs by price — 1 tables, 2 memory text,
3 knowledge graph, 4 vector (deep), 5 bounded claude -p research (extreme) —
and stops at the first level that answers. The answer object says how deep it
went, of which kind the answer is, what each store returned and what became of
every parameter sent. The contract is in docs/blackbox.md.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args, opts.cmd = args, cmd
			return runWith(runF, recallRun, opts)
		},
	}
	opts.Flags.bind(cmd, blackbox.FlagUsages(blackbox.VerbRecall))
	chain, _ := blackbox.Lookup(blackbox.VerbRecall, "chain")
	limit, _ := blackbox.Lookup(blackbox.VerbRecall, "limit")
	cmd.Flags().BoolVar(&opts.Chain, "chain", false, chain.Hint)
	cmd.Flags().IntVar(&opts.Limit, "limit", 5, limit.Hint)
	cmd.Flags().StringVar(&opts.Scope, "scope", "project", `"projects": memory text also from the desk's other registered projects (a list of scope records goes through --param)`)
	return cmd
}

func recallRun(opts *RecallOptions) error {
	extra := map[string]any{}
	for name, v := range map[string]any{"chain": opts.Chain, "limit": opts.Limit, "scope": opts.Scope} {
		if opts.cmd.Flags().Changed(name) {
			extra[name] = v
		}
	}
	if err := opts.Flags.validate(opts.cmd, blackbox.VerbRecall, extra); err != nil {
		return err
	}
	raw, err := opts.Flags.raw(opts.cmd, opts.In, opts.Args, extra)
	if err != nil {
		return printObject(opts.Out, nil, err)
	}
	ans, err := opts.Recall(context.Background(), opts.Flags.Project, raw)
	return printObject(opts.Out, ans, err)
}
