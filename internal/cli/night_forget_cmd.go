package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/longterm/night"
	"github.com/spf13/cobra"
)

// NightForgetOptions are the inputs of `memhook night forget`.
type NightForgetOptions struct {
	Out       io.Writer
	LongStore func(dir string) (*longterm.Store, string, error)
	Day       string
	Project   string
}

func newCmdNightForget(f *factory.Factory, runF func(*NightForgetOptions) error) *cobra.Command {
	opts := &NightForgetOptions{Out: f.Out, LongStore: f.LongStore}
	cmd := &cobra.Command{
		Use:   "forget DAY [--project DIR]",
		Short: "Delete the night's cache of one day, so the next night reads it again from its first section",
		Long: `forget deletes .claude/memory_long/.cerebro/night/cache/DAY.json. The night
names this command when a section of a day it had read changed afterwards:
it writes nothing for that day until the cache is gone. Do not delete a cache
to get past a provider failure: the next night resumes from it.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Day = args[0]
			return runWith(runF, nightForgetRun, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory inside the project")
	return cmd
}

func nightForgetRun(opts *NightForgetOptions) error {
	if _, err := time.Parse(time.DateOnly, opts.Day); err != nil {
		return usagef("give the day as YYYY-MM-DD", "night forget: %q is not a day YYYY-MM-DD", opts.Day)
	}
	s, _, err := opts.LongStore(opts.Project)
	if err != nil {
		return err
	}
	had, err := night.Forget(s, opts.Day)
	if err != nil {
		return hint.Wrap(err, "give the day as YYYY-MM-DD")
	}
	if !had {
		fmt.Fprintf(opts.Out, "no night cache for %s; nothing deleted\n", opts.Day)
		return nil
	}
	fmt.Fprintf(opts.Out, "deleted the night's cache of %s: the next night reads the day again from its first section\n", opts.Day)
	return nil
}
