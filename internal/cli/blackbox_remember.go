package cli

import (
	"context"
	"time"

	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/recall/projectbox"
	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
	"github.com/spf13/cobra"
)

// RememberOptions are the inputs of `memhook remember`.
type RememberOptions struct {
	*Factory
	Flags requestFlags
	Args  []string
	cmd   *cobra.Command
}

func newCmdRemember(f *Factory) *cobra.Command {
	opts := &RememberOptions{Factory: f}
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
			return rememberRun(opts)
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
	out, err := opts.rememberObject(context.Background(), processStart, opts.Flags.Project, raw)
	return printPartial(opts.Out, out, err)
}

// rememberObject makes one remember request as `memhook remember` prints
// it, for the command and the MCP server's remember tool alike. When part
// of memory took the text and another part failed, it returns both the
// answer (its error field saying what failed) and the error.
func (f *Factory) rememberObject(ctx context.Context, start time.Time, dir string, raw blackbox.Raw) (any, error) {
	p, err := f.boxProject(dir)
	if err != nil {
		return nil, err
	}
	return projectbox.Remember(ctx, p, raw, func(ans any) any { return f.recordVerbSince(start, runrec.KindRemember, dir, raw, ans) })
}
