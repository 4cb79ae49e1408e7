package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/spf13/cobra"
)

// CompileOptions are the inputs of `memhook compile list|done`.
type CompileOptions struct {
	Out        io.Writer
	Now        func() time.Time
	LongStore  func(dir string) (*longterm.Store, string, error)
	LongChange func(dir, action string, fn func(*longterm.Store, *config.Effective) error) (*longterm.Store, error)
	Action     string // list or done
	Days       []string
	Project    string
	JSON       bool
}

func newCmdCompile(f *factory.Factory) *cobra.Command {
	opts := &CompileOptions{Out: f.Out, Now: f.Now, LongStore: f.LongStore, LongChange: f.LongChange}
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
		RunE: func(cmd *cobra.Command, args []string) error { opts.Action = "list"; return compileRun(opts) },
	}
	list.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	done := &cobra.Command{
		Use: "done DAY...", Short: "Archive days whose distillate pages link them", Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Action, opts.Days = "done", args
			return compileRun(opts)
		},
	}
	addWithProject(cmd, &opts.Project, list, done)
	return cmd
}

func compileRun(opts *CompileOptions) error {
	if opts.Action == "done" {
		var moved []string
		_, err := opts.LongChange(opts.Project, "compile done "+strings.Join(opts.Days, " "), func(s *longterm.Store, _ *config.Effective) (err error) {
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
	s, _, err := opts.LongStore(opts.Project)
	if err != nil {
		return err
	}
	days, err := s.CompileList(opts.Now())
	if err != nil {
		return err
	}
	return printResult(opts.Out, opts.JSON, days, func(w io.Writer) { longterm.WriteDays(w, days) })
}
