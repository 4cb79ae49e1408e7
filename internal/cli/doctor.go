package cli

import (
	"io"

	"github.com/cerebro-mem/cerebro/internal/doctor"
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/spf13/cobra"
)

// DoctorOptions are the inputs of `memhook doctor`: what it uses of the
// factory, named, and its flag.
type DoctorOptions struct {
	Out       io.Writer
	DoctorEnv func(dir string) doctor.Env
	Project   string
}

func newCmdDoctor(f *factory.Factory, runF func(*DoctorOptions) error) *cobra.Command {
	opts := &DoctorOptions{Out: f.Out, DoctorEnv: f.DoctorEnv}
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
			return runWith(runF, doctorRun, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project to check")
	return cmd
}

func doctorRun(opts *DoctorOptions) error {
	env := opts.DoctorEnv(opts.Project)
	env.Version, env.ShortCommands = Version, ShortCommands
	rep := doctor.Run(env)
	rep.WriteText(opts.Out)
	if rep.Broken() {
		return &exitError{code: 1}
	}
	return nil
}
