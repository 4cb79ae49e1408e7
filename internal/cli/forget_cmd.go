package cli

import (
	"io"
	"os"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/spf13/cobra"
)

// ForgetOptions are the inputs of `memhook forget`: what it uses of the
// factory, named, and its argument and flags.
type ForgetOptions struct {
	Out         io.Writer
	ProjectRoot func(dir string) (string, error)
	Forget      func(root, target, base string) (*longterm.ForgetReport, error)
	Target      string // PATH or PATH#SECTION
	Project     string
	JSON        bool
}

func newCmdForget(f *factory.Factory, runF func(*ForgetOptions) error) *cobra.Command {
	opts := &ForgetOptions{Out: f.Out, ProjectRoot: f.ProjectRoot, Forget: f.Forget}
	cmd := &cobra.Command{
		Use:   "forget PATH[#SECTION]",
		Short: "Move a section of a memory file (or the whole file) to .trash/, out of the indexes and the history's head",
		Long: `Take back what memory should not keep. PATH is a Markdown file of the
project's memory (.claude/memory_short or .claude/memory_long; absolute, or
relative to here or to a memory folder: daily/2026-11-30.md). With #SECTION
only that "## " section goes: name it by its heading's text, or in a daily
file by its session (the id or its first characters, as the heading shows
them), with :SEQ when the session has several sections that day.

What goes is moved to .trash/ under its memory folder (nothing is deleted,
so a mistake can be undone by hand), dropped from the search index at once,
and in a long-term memory with its own git history the removal is committed
(earlier commits keep what they held: the history is not rewritten).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Target = args[0]
			return runWith(runF, forgetRun, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

func forgetRun(opts *ForgetOptions) error {
	root, err := opts.ProjectRoot(opts.Project)
	if err != nil {
		return err
	}
	base, _ := os.Getwd()
	res, err := opts.Forget(root, opts.Target, base)
	if err != nil {
		return err
	}
	return printResult(opts.Out, opts.JSON, res, res.WriteText)
}
