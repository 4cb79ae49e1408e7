package rollup

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Build is one run of `memhook rollup`: it collects the dashboard, writes
// it into dir (the folder holding registry.json) and adds the run's line
// to rollup.log, also when the write failed; now times the run on the real
// clock, whatever Options.Today says.
func Build(dir string, opts Options, now func() time.Time) (*Report, error) {
	start := now()
	r := Collect(opts)
	werr := Write(dir, r)
	line := LogLine{At: start, Date: r.Date, Projects: r.Registered, Problems: len(r.Diagnostics), Duration: now().Sub(start), WithGit: opts.WithGit}
	if werr != nil {
		line.Err = werr.Error()
	}
	if err := AppendLog(dir, line); err != nil && werr == nil {
		werr = err
	}
	return r, werr
}

// RegistryProblems are the diagnostics saying the registry itself could
// not be read: a run's warnings, since no project was read.
func (r *Report) RegistryProblems() []string {
	var out []string
	for _, d := range r.Diagnostics {
		if d.Kind == KindRegistryCorrupt || d.Kind == KindRegistryRead {
			out = append(out, d.Message)
		}
	}
	return out
}

// Summary is the run's line for the person: the projects by state and
// the diagnostics, and where the dashboard is.
func (r *Report) Summary(dashboard string) string {
	return fmt.Sprintf("rollup %s: %d active, %d paused, %d recently completed, %d diagnostics → %s",
		r.Date, len(r.Active), len(r.Paused), len(r.Completed), len(r.Diagnostics), dashboard)
}

// ErrNoDashboard means the desk has no dashboard yet: no rollup has run.
var ErrNoDashboard = errors.New("does not exist yet")

// ReadDashboard is the dashboard last built in dir, unchanged.
func ReadDashboard(dir string) ([]byte, error) {
	path := filepath.Join(dir, DashboardFile)
	data, err := safefs.ReadNote(path, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("print dashboard: %s %w", path, ErrNoDashboard)
	}
	if err != nil {
		return nil, fmt.Errorf("print dashboard: %w", err)
	}
	return data, nil
}
