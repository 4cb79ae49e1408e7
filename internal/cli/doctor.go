package cli

import (
	"fmt"
	"os"
	"text/tabwriter"
	"time"

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

// finding is one line of the report.
type finding struct {
	level string // ok, warn, broken
	what  string
	hint  string
}

type doctorReport struct {
	findings []finding
}

func (r *doctorReport) add(level, hint, format string, args ...any) {
	r.findings = append(r.findings, finding{level: level, what: fmt.Sprintf(format, args...), hint: hint})
}

// doctorCheck is one check of the report: it adds its findings to rep.
// A new check is one function added to doctorChecks.
type doctorCheck func(rep *doctorReport, opts *DoctorOptions, env *doctorEnv)

// doctorEnv is what several checks share, computed once.
type doctorEnv struct {
	now  time.Time
	root string // the project root, "" when it could not be resolved
}

func doctorChecks() []doctorCheck {
	return []doctorCheck{
		checkProject,
		checkConfig,
		checkTrust,
		func(rep *doctorReport, _ *DoctorOptions, env *doctorEnv) { checkMemoryInGit(rep, env.root) },
		checkContainment,
		func(rep *doctorReport, o *DoctorOptions, _ *doctorEnv) { checkStateDir(rep, o.Paths) },
		func(rep *doctorReport, o *DoctorOptions, _ *doctorEnv) { checkOtherStateDirs(rep, o.Factory) },
		func(rep *doctorReport, o *DoctorOptions, _ *doctorEnv) { checkDesk(rep, o.Paths) },
		func(rep *doctorReport, o *DoctorOptions, _ *doctorEnv) { checkRegistry(rep, o.Paths.Registry()) },
		func(rep *doctorReport, o *DoctorOptions, _ *doctorEnv) { checkOrgVault(rep, o.Paths.Home) },
		checkRemotes, checkNightTime,
		func(rep *doctorReport, o *DoctorOptions, _ *doctorEnv) { checkVersion(rep, o.Factory) },
		func(rep *doctorReport, o *DoctorOptions, _ *doctorEnv) { checkHotBinary(rep, o.Executable) },
		func(rep *doctorReport, o *DoctorOptions, _ *doctorEnv) { checkClaudeOnPath(rep, o.Factory) },
		func(rep *doctorReport, o *DoctorOptions, _ *doctorEnv) { checkPluginCopy(rep, o.Factory) },
		func(rep *doctorReport, o *DoctorOptions, _ *doctorEnv) { checkOnPath(rep, o.Factory) },
		func(rep *doctorReport, o *DoctorOptions, _ *doctorEnv) { checkShortCommands(rep, o.Factory) },
		checkMCP, checkModelCalls,
	}
}

func doctorRun(opts *DoctorOptions) error {
	rep := &doctorReport{}
	env := &doctorEnv{now: opts.Now()}
	for _, check := range doctorChecks() {
		check(rep, opts, env)
	}
	timings := checkHookLog(rep, opts.Paths.Logs(), env.now)
	checkPending(rep, opts.Paths.Sessions(), env.now)

	tw := tabwriter.NewWriter(opts.Out, 0, 4, 2, ' ', 0)
	broken := false
	for _, f := range rep.findings {
		fmt.Fprintf(tw, "%s\t%s\n", f.level, f.what)
		if f.hint != "" && f.level != "ok" {
			fmt.Fprintf(tw, "\t  hint: %s\n", f.hint)
		}
		broken = broken || f.level == "broken"
	}
	tw.Flush()
	if len(timings) > 0 {
		fmt.Fprintln(opts.Out)
		tw = tabwriter.NewWriter(opts.Out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "HOOK\tRUNS\tP50 ms\tP95 ms\tERRORS")
		for _, t := range timings {
			fmt.Fprintf(tw, "%s\t%d\t%.1f\t%.1f\t%d\n", t.Event, t.Runs, t.P50, t.P95, t.Errors)
		}
		tw.Flush()
	}
	if broken {
		return &exitError{code: 1}
	}
	return nil
}

// Path states, said the same way for every path.
const (
	pathOK      = "ok"
	pathMissing = "missing"
	pathLater   = "will be created on first use"
)

// pathState is "ok" for an existing path of the wanted kind, else
// firstUse when something creates it on first use, else "missing".
func pathState(path string, dir bool, createdOnUse bool) (string, bool) {
	fi, err := os.Stat(path)
	if err == nil && fi.IsDir() == dir {
		return pathOK, true
	}
	if createdOnUse {
		return pathLater, false
	}
	return pathMissing, false
}
