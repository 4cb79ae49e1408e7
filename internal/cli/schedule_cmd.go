package cli

import (
	"errors"
	"fmt"
	"io"
	"runtime"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/org/schedule"
	"github.com/spf13/cobra"
)

// ScheduleOptions are the inputs of `memhook schedule ...`: what it uses
// of the factory, named, and its flags.
type ScheduleOptions struct {
	Out, Err   io.Writer
	Getenv     func(string) string
	Config     func(root string) *config.Effective
	Executable string
	Desk       string
	// RunAgain runs one memhook command in this process (a daily job).
	RunAgain func(args []string) error
	Action   string // install, remove, status, run
	Home     string // run: the desk, passed on to every job
	DryRun   bool
	At       string // HH:MM; default rollup.hour:00
	OS       string // with --dry-run: show the plan of another OS
	JSON     bool
}

func newCmdSchedule(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "schedule",
		Short: "Install, remove or show the daily jobs (night pass, org rollup) in the OS scheduler",
		Long: `One daily entry runs ` + "`memhook schedule run`" + `, which runs the daily jobs in order
(the night pass over every registered project, then the org rollup): a systemd
user timer (or a crontab line when no user manager is reachable) on Linux, a
launchd agent on macOS, a Task Scheduler task on Windows. --dry-run prints
exactly what would be written and run.`,
	}
	opts := &ScheduleOptions{Out: f.Out, Err: f.Err, Getenv: f.Getenv, Config: f.Config, Executable: f.Executable, Desk: f.Paths.Home,
		RunAgain: func(args []string) error { return runAgain(f, args) }}
	return addVerbs(cmd, []verb{
		{"install", "Install (or move) the daily rollup entry; installing twice leaves one", nil},
		{"remove", "Remove the daily rollup entry", nil},
		{"status", "Show what is installed", nil},
		{"run", "Run the daily jobs now, as the scheduler does; a failing job does not stop the next", nil},
	}, func(c *cobra.Command, name string) {
		if name != "status" {
			c.Flags().BoolVar(&opts.DryRun, "dry-run", false, "print the files and commands without changing anything")
			c.Flags().StringVar(&opts.OS, "os", "", "with --dry-run: plan for this OS (linux, darwin, windows)")
			c.Flags().MarkHidden("os")
		}
		if name == "run" {
			c.Flags().StringVar(&opts.Home, "home", "", "the desk folder (default $CEREBRO_HOME or ~/cerebro)")
		}
		if name == "install" {
			c.Flags().StringVar(&opts.At, "at", "", "time of the daily run, HH:MM (default night.time from your settings, 04:00)")
		}
		c.Flags().BoolVar(&opts.JSON, "json", false, "print JSON (status)")
	}, func(name string, args []string) error {
		opts.Action = name
		return scheduleRun(opts)
	})
}

// validate checks the flags before any scheduler is asked or written to.
func (opts *ScheduleOptions) validate() error {
	if opts.OS != "" {
		if !opts.DryRun {
			return usagef("add --dry-run", "schedule: --os only plans")
		}
		if err := checkChoice("schedule", "os", opts.OS, []string{"linux", "darwin", "windows"}); err != nil {
			return err
		}
	}
	return checkClockFlag("schedule", "at", opts.At)
}

func scheduleRun(opts *ScheduleOptions) error {
	if opts.Action == "run" {
		return scheduleJobs(opts)
	}
	if err := opts.validate(); err != nil {
		return err
	}
	goos := runtime.GOOS
	if opts.OS != "" {
		goos = opts.OS
	}
	if opts.Action == "status" {
		e, err := schedule.UserEntry(opts.Getenv, goos)
		if err != nil {
			return hint.Match(err, scheduleHints...)
		}
		return printResult(opts.Out, opts.JSON, map[string]any{"entries": e.Statuses()}, func(w io.Writer) { schedule.WriteStatuses(w, e.Statuses()) })
	}
	c, err := schedule.Prepare(schedule.Request{Install: opts.Action == "install", GOOS: goos, Getenv: opts.Getenv,
		Executable: opts.Executable, At: opts.At, Settings: opts.Config(""), Home: opts.Desk, DryRun: opts.DryRun})
	if err != nil {
		return hint.Match(err, scheduleHints...)
	}
	if opts.DryRun {
		if opts.Action == "install" {
			fmt.Fprint(opts.Out, schedule.DescribeJobs()+"\n")
		}
		fmt.Fprintf(opts.Out, "dry run: nothing is changed. %s would do:\n\n%s", opts.Action, c.Plan.Describe())
		return nil
	}
	if err := c.Apply(); err != nil {
		return hint.Wrap(fmt.Errorf("schedule %s: %w", opts.Action, err), "see what it would do with --dry-run, and do it by hand if the scheduler refuses")
	}
	fmt.Fprintln(opts.Out, c.Done)
	return nil
}

// scheduleHints say what the person can do about a schedule error.
var scheduleHints = []hint.On{
	{Err: schedule.ErrNoHome, Hint: "set HOME"},
	{Err: schedule.ErrNoExecutable, Hint: "run the installed binary (bin/memhook) rather than `go run`"},
	{Err: schedule.ErrBadClock, Hint: "for example --at 07:30"},
}

// scheduleJobs runs the daily jobs as the scheduler does, each as its own
// memhook command; the run fails when any did.
func scheduleJobs(opts *ScheduleOptions) error {
	err := schedule.RunJobs(opts.Home, opts.RunAgain, func(j schedule.Job, err error) {
		fmt.Fprintf(opts.Err, "memhook: error: job %s: %v\n", j.Name, err)
	})
	if errors.Is(err, schedule.ErrJobsFailed) {
		return &exitError{code: 1}
	}
	return err
}
