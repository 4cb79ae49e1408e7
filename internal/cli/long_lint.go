package cli

import (
	"io"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/lint"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/spf13/cobra"
)

// LintOptions are the inputs of `memhook lint`.
type LintOptions struct {
	Out       io.Writer
	Config    func(root string) *config.Effective
	LongStore func(dir string) (*longterm.Store, string, error)
	Project   string
	JSON      bool
}

func newCmdLint(f *factory.Factory, runF func(*LintOptions) error) *cobra.Command {
	opts := &LintOptions{Out: f.Out, Config: f.Config, LongStore: f.LongStore}
	cmd := &cobra.Command{
		Use:   "lint",
		Short: "Check the project's long-term memory (exit 1 on errors)",
		Long: `lint checks .claude/memory_long/: broken links (evidence links
[[daily/YYYY-MM-DD]] resolve in daily/ and daily/_archive/), pages without
type, unreadable frontmatter, orphans, index.md drift, the plan-fact contract,
the CORE.md cap and pending truths. --json prints
[{"file","line","rule","message","severity"}]. Exit 1 when any error is found.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWith(runF, lintRun, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory inside the project")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

func lintRun(opts *LintOptions) error {
	s, root, err := opts.LongStore(opts.Project)
	if err != nil {
		return err
	}
	found, err := s.LintProject(opts.Config(root).Long.CoreMaxChars)
	if err != nil {
		return err
	}
	return exitIf(printResult(opts.Out, opts.JSON, found, func(w io.Writer) { lint.WriteLines(w, found, s.Dir) }), lint.HasErrors(found))
}
