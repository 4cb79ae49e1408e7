package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/spf13/cobra"
)

// ConfigOptions are the inputs of `memhook config`.
type ConfigOptions struct {
	*Factory
	Project string // a directory inside the project whose file applies
	JSON    bool
}

func newCmdConfig(f *Factory) *cobra.Command {
	opts := &ConfigOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Show the effective settings and where each came from",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return configRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project whose settings apply")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

func configRun(opts *ConfigOptions) error {
	root, err := opts.projectRoot(opts.Project)
	if err != nil {
		return err
	}
	eff := opts.Config(root)
	if opts.JSON {
		out := map[string]any{
			"user_file": eff.UserFile, "project_file": eff.ProjectFile,
			"cerebro_home": opts.Paths.Home, "state_dir": opts.Paths.State,
			"settings": eff.Settings(), "warnings": eff.Warnings,
			"ignored": eff.Ignored, "project_trusted": eff.Trusted,
		}
		return indentJSON(opts.Out, out)
	}
	trust := ""
	if eff.Trusted {
		trust = " (trusted: every key applies)"
	} else if eff.ProjectFile != "" {
		trust = " (may only narrow the user's settings)"
	}
	fmt.Fprintf(opts.Out, "user file:    %s\nproject file: %s%s\ncerebro home: %s\nstate dir:    %s\n\n", eff.UserFile, eff.ProjectFile, trust, opts.Paths.Home, opts.Paths.State)
	tw := tabwriter.NewWriter(opts.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tVALUE\tSOURCE")
	for _, s := range eff.Settings() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Key, s.Value, s.Source)
	}
	tw.Flush()
	if len(eff.Ignored) > 0 {
		fmt.Fprintln(opts.Out, "\nIgnored in the project file (the user's value applies):")
		for _, w := range eff.Ignored {
			fmt.Fprintf(opts.Out, "  %s\n", w)
		}
	}
	for _, w := range eff.Warnings {
		fmt.Fprintf(opts.Err, "memhook: warning: %s\n", w)
	}
	fmt.Fprintf(opts.Out, "\nEvery key can be overridden by an environment variable, e.g. %s.\n", config.EnvName("short.flush_chars"))
	return nil
}
