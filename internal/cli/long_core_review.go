package cli

import (
	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/spf13/cobra"
	"io"
	"time"
)

// CoreReviewOptions are the inputs of `memhook core review`.
type CoreReviewOptions struct {
	In           io.Reader
	Out          io.Writer
	Now          func() time.Time
	Config       func(root string) *config.Effective
	LongStore    func(dir string) (*longterm.Store, string, error)
	MemoryCommit func(s *longterm.Store, root, action string, fn func() error) error
	Apply        []string // proposal ids, or "all"
	Drop         []string
	Project      string
	JSON         bool
	// StdinTerminal says whether a person can be asked, one proposal at a
	// time.
	StdinTerminal bool
}

func newCmdCoreReview(f *factory.Factory, runF func(*CoreReviewOptions) error) *cobra.Command {
	opts := &CoreReviewOptions{In: f.In, Out: f.Out, Now: f.Now, Config: f.Config, LongStore: f.LongStore, MemoryCommit: f.MemoryCommit}
	cmd := &cobra.Command{
		Use:   "review [--apply ID|all] [--drop ID|all]",
		Short: "List the CORE.md lines the night proposed, and add or drop them",
		Long: `The night's step 4 draws CORE.md lines from the person's own replies of a
day. With night.core = "propose" (the default) they wait here. review lists
them with the reply each restates; --apply adds a line through the CORE writer
(long.core_max_chars applies; one commit), --drop discards it. On a terminal
without flags it asks about each one.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.StdinTerminal = stdinIsTerminal(opts.In)
			return runWith(runF, coreReviewRun, opts)
		},
	}
	cmd.Flags().StringSliceVar(&opts.Apply, "apply", nil, "add the proposal with this id to CORE.md (all: every one)")
	cmd.Flags().StringSliceVar(&opts.Drop, "drop", nil, "discard the proposal with this id (all: every one)")
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory inside the project")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the proposals as JSON")
	return cmd
}

func coreReviewRun(opts *CoreReviewOptions) error {
	s, root, err := opts.LongStore(opts.Project)
	if err != nil {
		return err
	}
	if opts.JSON && len(opts.Apply)+len(opts.Drop) == 0 {
		ps, err := s.CoreProposals()
		if err != nil {
			return err
		}
		if ps == nil {
			ps = []longterm.CoreProposal{}
		}
		return writeJSON(opts.Out, ps)
	}
	return s.Review(longterm.CoreReview{
		Apply: opts.Apply, Drop: opts.Drop, Terminal: opts.StdinTerminal, In: opts.In, Out: opts.Out,
		Max: opts.Config(root).Long.CoreMaxChars, Now: opts.Now(),
		Commit: func(action string, fn func() error) error { return opts.MemoryCommit(s, root, action, fn) },
	})
}
