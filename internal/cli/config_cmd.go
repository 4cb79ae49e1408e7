package cli

import (
	"fmt"
	"io"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/spf13/cobra"
)

// ConfigOptions are the inputs of `memhook config`.
type ConfigOptions struct {
	Out, Err    io.Writer
	ProjectRoot func(dir string) (string, error)
	Config      func(root string) *config.Effective
	Paths       config.Paths
	Project     string // a directory inside the project whose file applies
	JSON        bool
}

func newCmdConfig(f *factory.Factory, runF func(*ConfigOptions) error) *cobra.Command {
	opts := &ConfigOptions{Out: f.Out, Err: f.Err, ProjectRoot: f.ProjectRoot, Config: f.Config, Paths: f.Paths}
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Show the effective settings and where each came from",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWith(runF, configRun, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project whose settings apply")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

func configRun(opts *ConfigOptions) error {
	root, err := opts.ProjectRoot(opts.Project)
	if err != nil {
		return err
	}
	eff := opts.Config(root)
	if opts.JSON {
		return writeJSON(opts.Out, eff.Report(opts.Paths))
	}
	for _, w := range eff.Warnings {
		fmt.Fprintf(opts.Err, "memhook: warning: %s\n", w)
	}
	return eff.WriteText(opts.Out, opts.Paths)
}
