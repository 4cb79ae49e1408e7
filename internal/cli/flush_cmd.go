package cli

import (
	"context"
	"errors"
	"io"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/shortterm"
	"github.com/spf13/cobra"
)

// FlushOptions are the inputs of `memhook flush`: what it uses of the
// factory, named, and its flags.
type FlushOptions struct {
	Out         io.Writer
	ProjectRoot func(dir string) (string, error)
	ShortTerm   func(log *runlog.Log) *shortterm.Memory
	Logs        string // the state dir's log folder
	Session     string // one session by id
	Pending     bool   // every pending session of every project
	Project     string // else: the pending sessions of this directory's project
	Trigger     string
	Final       bool
}

func newCmdFlush(f *factory.Factory, runF func(*FlushOptions) error) *cobra.Command {
	opts := &FlushOptions{Out: f.Out, ProjectRoot: f.ProjectRoot, ShortTerm: f.ShortTerm, Logs: f.Paths.Logs()}
	cmd := &cobra.Command{
		Use:   "flush",
		Short: "Write unflushed short-term segments to the daily files now",
		Long: `Write unflushed short-term segments to the daily files.

With --session, flush that session (the claude distiller's background run
uses this). With --pending, flush every session of every project left with
an unflushed segment (a cancelled SessionEnd, a killed process). Without
either, flush the pending sessions of the current directory's project.
Each segment is written exactly once however many flushers race.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWith(runF, flushRun, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Session, "session", "", "flush this session id")
	cmd.Flags().BoolVar(&opts.Pending, "pending", false, "flush every pending session of every project")
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project whose pending sessions to flush")
	cmd.Flags().StringVar(&opts.Trigger, "trigger", "", "trigger written in the section heading (default manual, or recovery with --pending)")
	cmd.Flags().BoolVar(&opts.Final, "final", false, "the session is over: drop it if trivial")
	return cmd
}

// validate checks the flags before any session is read.
func (opts *FlushOptions) validate() error {
	if opts.Trigger == "" {
		return nil
	}
	return checkChoice("flush", "trigger", opts.Trigger, shortterm.Triggers())
}

func flushRun(opts *FlushOptions) error {
	if err := opts.validate(); err != nil {
		return err
	}
	trigger := opts.Trigger
	req := shortterm.FlushRequest{Session: opts.Session, Pending: opts.Pending, Trigger: trigger, Final: opts.Final}
	if req.Session == "" && !req.Pending {
		root, err := opts.ProjectRoot(opts.Project)
		if err != nil {
			return err
		}
		req.Root = root
	}
	m := opts.ShortTerm(runlog.Open(opts.Logs, 1<<20))
	reports, err := m.Flush(context.Background(), req)
	if errors.Is(err, shortterm.ErrNoSession) {
		return hint.Wrap(err, "the session has captured nothing yet, or its state dir differs (see memhook doctor)")
	}
	if werr := shortterm.WriteFlushReports(opts.Out, reports, err != nil); err == nil {
		err = werr
	}
	return err
}
