package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// CompileOptions are the inputs of `memhook compile list|done`.
type CompileOptions struct {
	*Factory
	Action  string // list or done
	Days    []string
	Project string
	JSON    bool
}

func newCmdCompile(f *Factory) *cobra.Command {
	opts := &CompileOptions{Factory: f}
	run := func() error {
		return compileRun(opts)
	}
	cmd := &cobra.Command{
		Use:   "compile",
		Short: "Distil closed short-term days into wiki/_private/ and archive them",
		Long: `compile list prints the closed days (before today) still in
.claude/memory_short/daily/, with their paths. After the model has written
pages in .claude/memory_long/wiki/_private/ that link [[daily/YYYY-MM-DD]] for
each day, compile done DAY... moves exactly those days to daily/_archive/.
If a day is not linked, nothing moves. Nothing is ever deleted.`,
	}
	list := &cobra.Command{
		Use: "list", Short: "List closed days not compiled yet", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { opts.Action = "list"; return run() },
	}
	list.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	done := &cobra.Command{
		Use: "done DAY...", Short: "Archive days whose distillate pages link them", Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Action, opts.Days = "done", args
			return run()
		},
	}
	for _, c := range []*cobra.Command{list, done} {
		c.Flags().StringVar(&opts.Project, "project", ".", "a directory inside the project")
		cmd.AddCommand(c)
	}
	return cmd
}

func compileRun(opts *CompileOptions) error {
	s, root, err := opts.longStore(opts.Project)
	if err != nil {
		return err
	}
	if opts.Action == "done" {
		var moved []string
		err := opts.memoryCommit(s, root, "compile done "+strings.Join(opts.Days, " "), func() (err error) {
			moved, err = s.CompileDone(opts.Days, opts.Now())
			return err
		})
		if err != nil {
			return err
		}
		for _, p := range moved {
			fmt.Fprintf(opts.Out, "archived %s\n", p)
		}
		return nil
	}
	days, err := s.CompileList(opts.Now())
	if err != nil {
		return err
	}
	if opts.JSON {
		return indentJSON(opts.Out, days)
	}
	if len(days) == 0 {
		fmt.Fprintln(opts.Out, "no closed days to compile")
		return nil
	}
	for _, d := range days {
		fmt.Fprintf(opts.Out, "%s\t%s\n", d.Date, d.Path)
	}
	return nil
}
