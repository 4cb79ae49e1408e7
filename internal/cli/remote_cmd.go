package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/spf13/cobra"
)

// Remotes are user-only settings: a cloned repository may not choose
// where memory is sent (design §0.8). long.remote and org.remote are read
// from the user's settings (the user file and CEREBRO_* variables), never
// from a project's .claude/cerebro.toml; a project file that sets one is
// named and ignored.

// LongSyncOptions are the inputs of `memhook long sync`.
type LongSyncOptions struct {
	Out, Err     io.Writer
	Terminal     bool
	UseHome      func(home, what string) error
	ProjectRoots func(cmdName string, all bool, dir string) ([]string, error)
	LongSync     func(ctx context.Context, roots []string) ([]longterm.SyncRow, error)
	Project      string
	All          bool
	Home         string
	JSON         bool
}

func newCmdLongSync(f *factory.Factory, runF func(*LongSyncOptions) error) *cobra.Command {
	opts := &LongSyncOptions{Out: f.Out, Err: f.Err, Terminal: f.Terminal, UseHome: f.UseHome, ProjectRoots: f.ProjectRoots, LongSync: f.LongSync}
	cmd := &cobra.Command{
		Use:   "sync [--project DIR | --all]",
		Short: "Push long-term memory to long.remote and take its new commits back",
		Long: `sync pushes the history of .claude/memory_long/ to long.remote (a git URL
from your own settings, {project} standing for the project's folder name:
file://, ssh:// or user@host:path with your ssh agent). When the remote has
commits this copy lacks, it fetches and fast-forwards, or merges when both
sides' changes merge cleanly (new pages, lines added to log.md, facts and
index.md); otherwise it changes neither side and says "diverged". The daily
schedule runs it for every registered project after the night.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWith(runF, longSyncRun, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", "", "a directory inside the project (default: the current one)")
	cmd.Flags().BoolVar(&opts.All, "all", false, "every project registered with the org desk")
	cmd.Flags().StringVar(&opts.Home, "home", "", "the desk folder (default $CEREBRO_HOME or ~/cerebro)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the results as JSON")
	return cmd
}

func longSyncRun(opts *LongSyncOptions) error {
	if opts.All && opts.Project != "" {
		return usagef("pass one of them", "long sync: --all and --project exclude each other")
	}
	if err := opts.UseHome(opts.Home, "long sync"); err != nil {
		return err
	}
	roots, err := opts.ProjectRoots("long sync", opts.All, opts.Project)
	if err != nil {
		return err
	}
	rows, err := opts.LongSync(context.Background(), roots)
	if opts.All && errors.Is(err, factory.ErrNoRemote) {
		if opts.Terminal {
			fmt.Fprintln(opts.Err, "long sync: long.remote is not set; nothing to sync")
		}
		return nil
	}
	if err != nil {
		return err
	}
	return exitIf(printResult(opts.Out, opts.JSON, rows, func(w io.Writer) { longterm.WriteSyncRows(w, opts.Err, rows, opts.All && !opts.Terminal) }), longterm.Troubled(rows) > 0)
}
