package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
	"github.com/spf13/cobra"
)

// OrgSyncOptions are the inputs of `memhook org sync`.
type OrgSyncOptions struct {
	Out, Err     io.Writer
	Terminal     bool
	UseHome      func(home, what string) error
	OrgSync      func(ctx context.Context) (*gitrepo.SyncResult, error)
	Paths        *config.Paths // the factory's: --home (UseHome) changes the desk
	IfConfigured bool
	Home         string
	JSON         bool
}

func newCmdOrgSync(f *factory.Factory, runF func(*OrgSyncOptions) error) *cobra.Command {
	opts := &OrgSyncOptions{Out: f.Out, Err: f.Err, Terminal: f.Terminal, UseHome: f.UseHome, OrgSync: f.OrgSync, Paths: &f.Paths}
	cmd := &cobra.Command{
		Use:   "sync",
		Short: "Share the org vault through org.remote: push, and take the team's new commits",
		Long: `sync pushes the org vault ($CEREBRO_HOME) to org.remote (a git URL from your
own settings: file://, ssh:// or user@host:path with your ssh agent) and takes
the team's commits back: a fast-forward, or a merge when both sides' changes
merge cleanly (new pages, lines added to log.md and index.md). Otherwise it
changes neither side and says "diverged". On a desk without a vault the first
sync takes the team's vault: that is a teammate's clone.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWith(runF, orgSyncRun, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.IfConfigured, "if-configured", false, "do nothing, successfully, when org.remote is not set (the daily schedule)")
	cmd.Flags().StringVar(&opts.Home, "home", "", "the desk folder (default $CEREBRO_HOME or ~/cerebro)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the result as JSON")
	return cmd
}

func orgSyncRun(opts *OrgSyncOptions) error {
	if err := opts.UseHome(opts.Home, "org sync"); err != nil {
		return err
	}
	res, err := opts.OrgSync(context.Background())
	if opts.IfConfigured && errors.Is(err, factory.ErrNoRemote) {
		return nil
	}
	if err != nil {
		return err
	}
	if opts.JSON {
		if err := writeJSON(opts.Out, res); err != nil {
			return err
		}
	}
	line := res.Summary("org sync " + opts.Paths.Home)
	if r := res.RefusedText("org sync " + opts.Paths.Home); r != "" && !opts.JSON {
		fmt.Fprintln(opts.Err, "memhook: warning: "+r)
		fmt.Fprintln(opts.Err, "memhook: hint: "+gitrepo.RefusedHint)
	}
	if res.Troubled() {
		if !opts.JSON {
			fmt.Fprintln(opts.Err, "memhook: "+line)
			fmt.Fprintf(opts.Err, "memhook: hint: %s\n", res.Hint(opts.Paths.Home, "memhook org sync"))
		}
		return &exitError{code: 1}
	}
	if !opts.JSON && (opts.Terminal || !opts.IfConfigured) {
		fmt.Fprintln(opts.Out, line)
	}
	return nil
}
