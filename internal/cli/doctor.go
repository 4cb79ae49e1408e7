package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/cerebro-mem/cerebro/internal/doctor"
	"github.com/spf13/cobra"
)

// DoctorOptions are the inputs of `memhook doctor`.
type DoctorOptions struct {
	*Factory
	Project string
}

func newCmdDoctor(f *Factory) *cobra.Command {
	opts := &DoctorOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check cerebro's setup: paths, versions, hook timings and errors, pending flushes",
		Long: `Check cerebro's setup and say what to do about each problem.

Shows the paths in use, the binary's version against the plugin's, hook
timings (p50/p95 per event) and recent errors from the hook log, sessions
waiting for a flush, and configuration warnings. Exits 1 only when something
is broken (unreadable configuration, a state dir that cannot be written, a
corrupt registry).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return doctorRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project to check")
	return cmd
}

func doctorRun(opts *DoctorOptions) error {
	rep := doctor.Run(doctor.Env{
		Paths: opts.Paths, Getenv: opts.Getenv, Environ: opts.Environ, Config: opts.Config, Now: opts.Now(),
		Project: opts.Project, ProjectRoot: opts.projectRoot, PluginRoot: opts.pluginRoot(),
		Executable: opts.Executable, Version: Version, ClaudeDir: claudeConfigDir(opts.Factory),
		ShortCommands: ShortCommands, LongRemoteFor: longRemoteFor,
	})
	tw := tabwriter.NewWriter(opts.Out, 0, 4, 2, ' ', 0)
	for _, f := range rep.Findings {
		fmt.Fprintf(tw, "%s\t%s\n", f.Level, f.What)
		if f.Hint != "" && f.Level != "ok" {
			fmt.Fprintf(tw, "\t  hint: %s\n", f.Hint)
		}
	}
	tw.Flush()
	if len(rep.Timings) > 0 {
		fmt.Fprintln(opts.Out)
		tw = tabwriter.NewWriter(opts.Out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "HOOK\tRUNS\tP50 ms\tP95 ms\tERRORS")
		for _, t := range rep.Timings {
			fmt.Fprintf(tw, "%s\t%d\t%.1f\t%.1f\t%d\n", t.Event, t.Runs, t.P50, t.P95, t.Errors)
		}
		tw.Flush()
	}
	if rep.Broken() {
		return &exitError{code: 1}
	}
	return nil
}
