package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/registry"
	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/session"
	"github.com/spf13/cobra"
	"github.com/tidwall/gjson"
)

// DoctorOptions are the inputs of `memhook doctor`.
type DoctorOptions struct {
	*Factory
	Project string
}

func newCmdDoctor(f *Factory, runF func(*DoctorOptions) error) *cobra.Command {
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
			if runF != nil {
				return runF(opts)
			}
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

func doctorRun(opts *DoctorOptions) error {
	rep := &doctorReport{}
	now := opts.Now()
	root, err := opts.projectRoot(opts.Project)
	if err != nil {
		rep.add("broken", "run doctor from inside a project, or pass --project with an existing directory", "project: %v", err)
	} else {
		l := project.Layout{Root: root}
		rep.add("ok", "", "project %s (id %s)", root, project.ID(root))
		rep.add("ok", "", "short-term memory %s", l.DailyDir())
		if l.LongActive() {
			rep.add("ok", "", "long-term memory active at %s", l.LongDir())
			doctorNight(rep, l)
		}
	}
	cfg, err := opts.Config(root)
	if err != nil {
		rep.add("broken", "fix the file or variable named above (move a broken file aside to use the defaults)", "configuration: %v", err)
	} else {
		broken := map[string]bool{}
		for _, w := range cfg.Broken {
			broken[w] = true
			rep.add("broken", "fix the file named (the hooks use the defaults for what cannot be read meanwhile); `memhook config` shows what applies", "configuration: %s", w)
		}
		for _, w := range cfg.Warnings {
			if broken[w] {
				continue
			}
			rep.add("warn", "fix or remove the key named (the hooks use its default meanwhile); `memhook config` lists every key and its value", "configuration: %s", w)
		}
		if k := cfg.Distiller.Kind; k != "extractive" && k != "claude" {
			rep.add("warn", `set distiller.kind to "extractive" or "claude"`, "distiller.kind %q is unknown; extractive is used", k)
		}
	}
	checkStateDir(rep, opts.Paths.State)
	rep.add("ok", "", "cerebro home %s", opts.Paths.Home)
	checkRegistry(rep, opts.Paths.Registry())
	checkVersion(rep, opts.Factory)
	timings := checkHookLog(rep, opts.Paths.Logs(), now)
	checkPending(rep, opts.Paths.Sessions(), now)

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

func checkStateDir(rep *doctorReport, dir string) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		rep.add("broken", "set CEREBRO_STATE_DIR to a writable directory", "state dir %s: %v", dir, err)
		return
	}
	f, err := os.CreateTemp(dir, ".doctor-*")
	if err != nil {
		rep.add("broken", "set CEREBRO_STATE_DIR to a writable directory", "state dir %s is not writable: %v", dir, err)
		return
	}
	f.Close()
	os.Remove(f.Name())
	rep.add("ok", "", "state dir %s", dir)
}

func checkRegistry(rep *doctorReport, path string) {
	reg, err := registry.Read(path)
	switch {
	case errors.Is(err, registry.ErrCorrupt):
		rep.add("broken", "move the file aside (a backup is kept by the registry repair) and start a session to re-register", "registry %s: %v", path, err)
	case err != nil:
		rep.add("warn", "check the permissions of the cerebro home", "registry %s: %v", path, err)
	default:
		for _, p := range reg.Validate() {
			rep.add("warn", "edit or remove the entry", "registry entry %d (%s): %s", p.Index, p.ID, p.Message)
		}
		rep.add("ok", "", "registry %s (%d projects)", path, len(reg.Projects))
	}
}

// checkVersion compares the binary with the plugin it is run for: a stale
// bin/memhook after `git pull` runs old hook code.
func checkVersion(rep *doctorReport, f *Factory) {
	var candidates []string
	if r := f.Getenv("CLAUDE_PLUGIN_ROOT"); r != "" {
		candidates = append(candidates, filepath.Join(r, ".claude-plugin", "plugin.json"))
	}
	if f.Executable != "" {
		candidates = append(candidates, filepath.Join(filepath.Dir(f.Executable), "..", ".claude-plugin", "plugin.json"))
	}
	for _, c := range candidates {
		data, err := os.ReadFile(c)
		if err != nil {
			continue
		}
		v := gjson.GetBytes(data, "version").String()
		if v != "" && !strings.HasPrefix(Version, v) {
			rep.add("warn", "run `make build` in the plugin checkout so the hooks run the current code",
				"binary version %s differs from plugin version %s (%s)", Version, v, filepath.Clean(c))
			return
		}
		rep.add("ok", "", "memhook %s, plugin %s", Version, v)
		return
	}
	rep.add("warn", "run the memhook from the plugin's bin/ or set CLAUDE_PLUGIN_ROOT", "memhook %s; plugin.json not found to compare", Version)
}

// checkHookLog reports the most recent errors of the last day and slow
// hooks, and returns the timings per event.
func checkHookLog(rep *doctorReport, dir string, now time.Time) []runlog.Timing {
	entries, err := runlog.Open(dir, 0).Read()
	if err != nil {
		rep.add("warn", "check the permissions of the state dir", "hook log: %v", err)
		return nil
	}
	if len(entries) == 0 {
		rep.add("warn", "start a Claude Code session with the plugin installed; `claude plugin list` shows whether it is enabled", "no hook has run yet (log %s)", filepath.Join(dir, "hooks.log"))
		return nil
	}
	timings, recent := runlog.Summarize(entries)
	n := 0
	for i := len(recent) - 1; i >= 0 && n < 5; i-- {
		e := recent[i]
		if now.Sub(e.Time) > 24*time.Hour {
			break
		}
		rep.add("warn", "hooks fail open, so the session went on; the message says which step failed",
			"%s error at %s: %s", e.Event, e.Time.Local().Format("2006-01-02 15:04:05"), e.Message)
		n++
	}
	for _, t := range timings {
		if t.P95 > 1000 {
			rep.add("warn", "a slow disk or a huge stdin; see the log for the slow runs", "%s hooks are slow: p95 %.0f ms", t.Event, t.P95)
		}
	}
	return timings
}

func checkPending(rep *doctorReport, dir string, now time.Time) {
	store := session.Store{Root: dir}
	ids, err := store.Projects()
	if err != nil {
		rep.add("warn", "check the permissions of the state dir", "sessions: %v", err)
		return
	}
	stale := 0
	for _, id := range ids {
		pending, _ := store.Pending(id)
		for _, s := range pending {
			st, err := s.Load()
			if err != nil {
				rep.add("warn", "delete the file; its session's unflushed part is then lost", "session state: %v", err)
				continue
			}
			if st.Ended || now.Sub(st.LastSeen) > recoverIdle {
				stale++
			}
		}
	}
	if stale > 0 {
		rep.add("warn", "run `memhook flush --pending` (the next session of each project also recovers them)", "%d session(s) ended with an unflushed segment", stale)
		return
	}
	rep.add("ok", "", "no session waiting for a flush")
}
