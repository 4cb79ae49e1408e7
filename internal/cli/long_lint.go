package cli

import (
	"fmt"

	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/longterm/lint"
	"github.com/spf13/cobra"
)

// LintOptions are the inputs of `memhook lint`.
type LintOptions struct {
	*Factory
	Project string
	JSON    bool
}

func newCmdLint(f *Factory) *cobra.Command {
	opts := &LintOptions{Factory: f}
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
			return lintRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory inside the project")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

func lintRun(opts *LintOptions) error {
	s, root, err := opts.longStore(opts.Project)
	if err != nil {
		return err
	}
	st, err := s.Status()
	if err != nil {
		return err
	}
	if !st.Exists {
		return withHint(fmt.Errorf("lint: no long-term memory in %s", s.Dir), "run `memhook long on` first")
	}
	eff := opts.Config(root)
	found, err := s.Lint(longterm.LintOptions{CoreMaxChars: eff.Long.CoreMaxChars, Project: true})
	if err != nil {
		return fmt.Errorf("lint: %w", err)
	}
	if opts.JSON {
		if err := indentJSON(opts.Out, found); err != nil {
			return err
		}
	} else {
		for _, f := range found {
			fmt.Fprintf(opts.Out, "%s:%d: %s: %s [%s]\n", f.File, f.Line, f.Severity, f.Message, f.Rule)
		}
		errs, warns := lint.Count(found)
		fmt.Fprintf(opts.Out, "%d error(s), %d warning(s) in %s\n", errs, warns, s.Dir)
	}
	if lint.HasErrors(found) {
		return &exitError{1}
	}
	return nil
}
