package cli

import (
	"fmt"

	"github.com/cerebro-mem/cerebro/internal/org/schedule"
)

// scheduleJobs runs every daily job in order, each as its own memhook
// command with the desk passed on; one failing job does not stop the
// next, and the run fails when any did.
func scheduleJobs(opts *ScheduleOptions) error {
	var failed []string
	for _, j := range schedule.Jobs {
		args := append([]string{}, j.Args...)
		if opts.Home != "" {
			args = append(args, "--home", opts.Home)
		}
		cmd := newRootCmd(opts.Factory)
		cmd.SetArgs(args)
		cmd.SetIn(opts.In)
		cmd.SetOut(opts.Out)
		cmd.SetErr(opts.Err)
		if err := cmd.Execute(); err != nil {
			failed = append(failed, j.Name)
			fmt.Fprintf(opts.Err, "memhook: error: job %s: %v\n", j.Name, err)
		}
	}
	if len(failed) > 0 {
		return &exitError{code: 1}
	}
	return nil
}
