package cli

import (
	"context"
	"io"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/spf13/cobra"
)

// RememberOptions are the inputs of `memhook remember`.
type RememberOptions struct {
	In       io.Reader
	Out      io.Writer
	Remember func(ctx context.Context, dir string, raw blackbox.Raw) (any, error)
	Flags    requestFlags
	Args     []string
	cmd      *cobra.Command
}

func newCmdRemember(f *factory.Factory, runF func(*RememberOptions) error) *cobra.Command {
	opts := &RememberOptions{In: f.In, Out: f.Out, Remember: f.Remember}
	cmd := &cobra.Command{
		Use:   "remember [TEXT...]",
		Short: "Add to memory; prints which stores received what (docs/blackbox.md)",
		Long: `Add to memory. The text always becomes a record in the long-term memory
(.claude/memory_long/records/); with --table and --key the value also goes to
the relational store, whose tables and kinds grow as needed (--list turns the
kind into a list table). The answer object names the stores, the tables and
kinds created, the new tables that received rows and the fate of every
parameter. The contract is in docs/blackbox.md.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args, opts.cmd = args, cmd
			return runWith(runF, rememberRun, opts)
		},
	}
	opts.Flags.bind(cmd, blackbox.FlagUsages(blackbox.VerbRemember))
	return cmd
}

func rememberRun(opts *RememberOptions) error {
	if err := opts.Flags.validate(opts.cmd, blackbox.VerbRemember, nil); err != nil {
		return err
	}
	raw, err := opts.Flags.raw(opts.cmd, opts.In, opts.Args, nil)
	if err != nil {
		return printObject(opts.Out, nil, err)
	}
	out, err := opts.Remember(context.Background(), opts.Flags.Project, raw)
	return printPartial(opts.Out, out, err)
}
