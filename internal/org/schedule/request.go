package schedule

import (
	"errors"

	"github.com/cerebro-mem/cerebro/internal/config"
)

// Request is one change of the user's daily entry: an install (or a move
// to another time) or a removal, planned for GOOS. Errors a person can act
// on wrap [ErrNoHome], [ErrNoExecutable] or [ErrBadClock].
type Request struct {
	Install    bool // else remove
	GOOS       string
	Getenv     func(string) string
	Executable string            // install: memhook's own path, written into the entry
	At         string            // install: HH:MM; "" takes night.time from Settings
	Settings   *config.Effective // the user's settings
	Home       string            // install: the desk every job runs for
	// DryRun plans only: an install then leaves the entries other
	// schedulers hold alone, as nothing is applied.
	DryRun bool
}

// Change is a planned change of the entry; [Change.Apply] does it.
type Change struct {
	Plan Plan
	Done string // what an applied change did, for a person
	ex   *Executor
}

// Prepare plans req: it finds the user's entry, and for an install
// memhook's path and the time of day, in that order.
func Prepare(req Request) (Change, error) {
	e, err := UserEntry(req.Getenv, req.GOOS)
	if err != nil {
		return Change{}, err
	}
	if !req.Install {
		return Change{Plan: e.Remove(), Done: "removed the daily entry", ex: e.Ex}, nil
	}
	exe, err := Executable(req.Executable)
	if err != nil {
		return Change{}, err
	}
	hour, minute, err := Clock(req.At, req.Settings)
	if err != nil {
		return Change{}, err
	}
	plan, err := e.Install(exe, req.Home, hour, minute, !req.DryRun)
	if err != nil {
		return Change{}, err
	}
	return Change{Plan: plan, Done: e.Installed(hour, minute), ex: e.Ex}, nil
}

// Apply writes and runs the change's plan.
func (c Change) Apply() error { return c.ex.Apply(c.Plan) }

// ErrJobsFailed means at least one daily job failed; [RunJobs] handed
// each failure over as it came.
var ErrJobsFailed = errors.New("schedule run: a daily job failed")

// RunJobs runs every job in [Jobs] order through run (memhook's own
// command line), passing home on as --home when given. A job that fails
// is handed to failed and the next one still runs: the night pass
// failing in one project must not stop the rollup that reports it.
func RunJobs(home string, run func(args []string) error, failed func(Job, error)) error {
	var err error
	for _, j := range Jobs {
		args := append([]string{}, j.Args...)
		if home != "" {
			args = append(args, "--home", home)
		}
		if e := run(args); e != nil {
			failed(j, e)
			err = ErrJobsFailed
		}
	}
	return err
}
