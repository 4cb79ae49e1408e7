package rollup

import (
	"fmt"
	"time"
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
