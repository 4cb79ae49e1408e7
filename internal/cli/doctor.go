package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/org/orgvault"
	"github.com/cerebro-mem/cerebro/internal/org/registry"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/shortterm"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
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
		checkMCP,
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

func checkProject(rep *doctorReport, opts *DoctorOptions, env *doctorEnv) {
	root, err := opts.projectRoot(opts.Project)
	if err != nil {
		rep.add("broken", "run doctor from inside a project, or pass --project with an existing directory", "project: %v", err)
		return
	}
	env.root = root
	// The plugin's own checkout is where people run `make install`: it is
	// not a project whose memory they mean to check.
	if _, err := os.Stat(filepath.Join(root, ".claude-plugin", "plugin.json")); err == nil && root == opts.pluginRoot() {
		rep.add("ok", "", "project: none checked (this is cerebro's own checkout; run doctor in a project, or pass --project)")
		env.root = ""
		return
	}
	l := project.Layout{Root: root}
	rep.add("ok", "", "project %s (id %s)", root, project.ID(root))
	st, _ := pathState(l.DailyDir(), true, true)
	rep.add("ok", "", "short-term memory %s: %s", l.DailyDir(), st)
	if l.LongActive() {
		rep.add("ok", "", "long-term memory %s: ok", l.LongDir())
		doctorNight(rep, l)
	} else {
		rep.add("ok", "", "long-term memory: off (/cerebro:memory_long_active on switches it on)")
	}
}

func checkConfig(rep *doctorReport, opts *DoctorOptions, env *doctorEnv) {
	cfg, err := opts.Config(env.root)
	if err != nil {
		rep.add("broken", "fix the file or variable named above (move a broken file aside to use the defaults)", "configuration: %v", err)
		return
	}
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

// checkOtherStateDirs names the state dirs not in use, with their last
// use: after a `claude --plugin-dir` session the hooks wrote to
// cerebro-inline, which a terminal never reads unless told.
func checkOtherStateDirs(rep *doctorReport, f *Factory) {
	in := filepath.Clean(f.Paths.State)
	for _, d := range config.FindStateDirs(f.Getenv) {
		if filepath.Clean(d.Dir) == in {
			continue
		}
		rep.add("ok", "", "other state dir %s, last used %s (not read; CEREBRO_STATE_DIR=%s reads it)", d.Dir, d.LastUse.Local().Format("2006-01-02 15:04"), d.Dir)
	}
}

func checkDesk(rep *doctorReport, paths config.Paths) {
	st, _ := pathState(paths.Home, true, true)
	rep.add("ok", "", "cerebro home (desk) %s: %s", paths.Home, st)
	st, _ = pathState(filepath.Join(paths.DeskShortDir(), "daily"), true, true)
	rep.add("ok", "", "desk daily folder %s: %s", filepath.Join(paths.DeskShortDir(), "daily"), st)
}

func checkOrgVault(rep *doctorReport, home string) {
	if _, err := orgvault.Open(home); err == nil {
		rep.add("ok", "", "org vault %s: ok", home)
		return
	}
	rep.add("ok", "", "org vault %s: %s (by /org_ingest, /org_query, /org_lint, /org_rollup or `memhook org init`)", home, pathLater)
}

// checkPluginCopy says which copy of the plugin Claude Code runs. At
// install it copies the plugin to ~/.claude/plugins/cache/…, but a plugin
// from a directory marketplace (make install registers the checkout) runs
// from that directory: CLAUDE_PLUGIN_ROOT is the checkout (with a trailing
// slash, hence the "//" in paths Claude Code writes), so `make build`
// takes effect without a reinstall and the cached copy is not used.
func checkPluginCopy(rep *doctorReport, f *Factory) {
	if r := f.Getenv("CLAUDE_PLUGIN_ROOT"); r != "" {
		rep.add("ok", "", "plugin running from %s (CLAUDE_PLUGIN_ROOT)", filepath.Clean(r))
		return
	}
	plugins := filepath.Dir(config.PluginDataRoot(f.Getenv)) // ~/.claude/plugins
	installed := readSmallJSON(filepath.Join(plugins, "installed_plugins.json"))
	if installed == "" {
		notInstalled(rep, f)
		return
	}
	known := readSmallJSON(filepath.Join(plugins, "known_marketplaces.json"))
	found := false
	gjson.Get(installed, "plugins").ForEach(func(key, val gjson.Result) bool {
		id := key.String()
		name, market, ok := strings.Cut(id, "@")
		if !ok || name != "cerebro" {
			return true
		}
		found = true
		cached := filepath.Clean(val.Get("0.installPath").String())
		src := gjson.Get(known, gjson.Escape(market)+".source")
		if src.Get("source").String() == "directory" {
			rep.add("ok", "", "plugin %s runs from %s (a directory marketplace runs its source folder; the copy in %s is not used)", id, filepath.Clean(src.Get("path").String()), cached)
		} else {
			rep.add("ok", "", "plugin %s runs from %s (the copy Claude Code made at install)", id, cached)
		}
		return true
	})
	if !found {
		notInstalled(rep, f)
	}
}

// ClaudeCodeInstall is the command that installs Claude Code, in every
// hint that needs it.
const ClaudeCodeInstall = "npm install -g @anthropic-ai/claude-code"

// notInstalled warns that Claude Code does not load the plugin: until it
// does, no hook runs and nothing is remembered.
func notInstalled(rep *doctorReport, f *Factory) {
	root := checkoutName(f)
	hint := "run `make install` in " + root + " (it needs the claude CLI on PATH; without it: " + ClaudeCodeInstall + "); or try it once with claude --plugin-dir " + root
	rep.add("warn", hint, "plugin: not installed in Claude Code, so no hook runs and nothing is remembered")
}

// checkClaudeOnPath tells whether the claude CLI is on PATH: make install
// needs it to install the plugin, and the claude distiller, the shadow
// runs and extreme recall start it.
func checkClaudeOnPath(rep *doctorReport, f *Factory) {
	if p := lookPathIn(f.Getenv("PATH"), "claude"); p != "" {
		rep.add("ok", "", "claude CLI on PATH: %s", p)
		return
	}
	rep.add("warn", "install Claude Code: "+ClaudeCodeInstall+" (then run `make install` in "+checkoutName(f)+")",
		"claude CLI on PATH: missing (`which claude` finds nothing)")
}

// checkoutName is the plugin checkout for a hint, or its description
// when memhook runs from elsewhere.
func checkoutName(f *Factory) string {
	if r := f.pluginRoot(); r != "" {
		return r
	}
	return "the cerebro checkout"
}

// lookPathIn finds an executable name in a PATH value (not the process's:
// doctor reads its environment through the Factory).
func lookPathIn(path, name string) string {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		for _, n := range []string{name, name + ".exe"} {
			p := filepath.Join(dir, n)
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
				return p
			}
		}
	}
	return ""
}

// readSmallJSON reads a Claude Code settings file of at most 1 MiB; ""
// when it is missing or larger.
func readSmallJSON(path string) string {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 1<<20 {
		return ""
	}
	data, err := os.ReadFile(path)
	if err != nil || !gjson.ValidBytes(data) {
		return ""
	}
	return string(data)
}

// checkOnPath tells whether `memhook` in a terminal finds a memhook.
func checkOnPath(rep *doctorReport, f *Factory) {
	if p := lookPathIn(f.Getenv("PATH"), "memhook"); p != "" {
		rep.add("ok", "", "memhook on PATH: %s", p)
		return
	}
	bindir := f.Getenv("CEREBRO_BIN_DIR")
	if bindir == "" {
		bindir = f.Getenv("XDG_BIN_HOME")
	}
	if bindir == "" {
		bindir = filepath.Join(f.Getenv("HOME"), ".local", "bin")
	}
	if fi, err := os.Stat(filepath.Join(bindir, "memhook")); err == nil && !fi.IsDir() {
		rep.add("warn", "add it to PATH, e.g. in ~/.profile: export PATH=\""+bindir+":$PATH\"", "memhook on PATH: missing; the launcher %s exists but %s is not on PATH", filepath.Join(bindir, "memhook"), bindir)
		return
	}
	rep.add("warn", "run `make install` in the plugin checkout: it puts a memhook launcher in ~/.local/bin and says how to add that folder to PATH", "memhook on PATH: missing (`which memhook` finds nothing)")
}

func checkShortCommands(rep *doctorReport, f *Factory) {
	dir := userCommandsDir(f)
	st := ShortStatus(dir, f.pluginRoot())
	var ours, stale, theirs, missing []string
	for _, n := range ShortCommands {
		switch st[n] {
		case shortOurs:
			ours = append(ours, "/"+n)
		case shortStale:
			ours = append(ours, "/"+n)
			stale = append(stale, "/"+n)
		case shortTheirs:
			theirs = append(theirs, "/"+n)
		default:
			missing = append(missing, "/"+n)
		}
	}
	switch {
	case len(missing) == len(ShortCommands):
		rep.add("warn", "run `memhook commands install` (make install does) for /org_ingest, /recall, …; /cerebro:NAME works meanwhile", "short commands in %s: missing", dir)
	case len(missing) > 0:
		rep.add("warn", "run `memhook commands install` again", "short commands in %s: %d installed, missing %s", dir, len(ours), strings.Join(missing, " "))
	default:
		rep.add("ok", "", "short commands in %s: %d installed", dir, len(ours))
	}
	if len(stale) > 0 {
		rep.add("warn", "run `memhook commands install` again (make install does)", "short commands out of date, written from an older plugin or for a moved checkout: %s", strings.Join(stale, " "))
	}
	if len(theirs) > 0 {
		rep.add("ok", "", "short commands left to a person's own file: %s (use /cerebro:NAME)", strings.Join(theirs, " "))
	}
}

// checkStateDir says which state dir is in use and why, and whether it can
// be written; it creates nothing (a fresh machine has none until the
// first hook runs).
func checkStateDir(rep *doctorReport, paths config.Paths) {
	dir := paths.State
	why := paths.StateWhy
	if why == "" {
		why = "set by the caller"
	}
	st, ok := pathState(dir, true, true)
	if !ok {
		parent := dir
		for {
			if _, err := os.Stat(parent); err == nil {
				break
			}
			next := filepath.Dir(parent)
			if next == parent {
				break
			}
			parent = next
		}
		if err := probeWritable(parent); err != nil {
			rep.add("broken", "set CEREBRO_STATE_DIR to a writable directory", "state dir %s (%s): cannot be created: %v", dir, why, err)
			return
		}
		rep.add("ok", "", "state dir %s: %s (chosen by %s)", dir, st, why)
		return
	}
	if err := probeWritable(dir); err != nil {
		rep.add("broken", "set CEREBRO_STATE_DIR to a writable directory", "state dir %s is not writable: %v", dir, err)
		return
	}
	rep.add("ok", "", "state dir %s: ok (chosen by %s)", dir, why)
}

func probeWritable(dir string) error {
	name := filepath.Join(dir, fmt.Sprintf(".doctor-%d", os.Getpid()))
	f, err := safefs.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	f.Close()
	return safefs.Remove(name)
}

func checkRegistry(rep *doctorReport, path string) {
	if st, ok := pathState(path, false, true); !ok {
		rep.add("ok", "", "registry %s: %s (by /memory_long_active on)", path, st)
		return
	}
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
		rep.add("ok", "", "registry %s: ok, %s", path, plural(len(reg.Projects), "project"))
	}
}

// checkVersion compares the binary with the plugin it is run for (the
// checkout [Factory.pluginRoot] names, the same one evolve and the
// commands use): a stale bin/memhook after `git pull` runs old hook code.
func checkVersion(rep *doctorReport, f *Factory) {
	root := f.pluginRoot()
	if root == "" {
		rep.add("warn", "run the memhook from the plugin's bin/ or set CLAUDE_PLUGIN_ROOT", "memhook %s; plugin.json not found to compare", Version)
		return
	}
	manifest := filepath.Join(root, ".claude-plugin", "plugin.json")
	data, _ := os.ReadFile(manifest)
	v := gjson.GetBytes(data, "version").String()
	if v != "" && !strings.HasPrefix(Version, v) {
		rep.add("warn", "run `make build` in the plugin checkout so the hooks run the current code",
			"binary version %s differs from plugin version %s (%s)", Version, v, manifest)
		return
	}
	rep.add("ok", "", "memhook %s, plugin %s", Version, v)
}

// checkHotBinary looks for memhook-hot beside memhook: without it the
// per-turn hooks run memhook, correct but about twice as slow; built long
// before memhook, it is stale and runs old capture code.
func checkHotBinary(rep *doctorReport, exe string) {
	if exe == "" {
		return
	}
	hot := filepath.Join(filepath.Dir(exe), "memhook-hot"+filepath.Ext(exe))
	hi, err := os.Stat(hot)
	if err != nil {
		rep.add("warn", "run `make build` in the plugin checkout", "%s is missing: the per-turn hooks run memhook, about twice as slow", hot)
		return
	}
	if mi, err := os.Stat(exe); err == nil && hi.ModTime().Before(mi.ModTime().Add(-10*time.Minute)) {
		rep.add("warn", "run `make build` in the plugin checkout", "%s is older than memhook: the per-turn hooks run an older build", hot)
		return
	}
	rep.add("ok", "", "memhook-hot %s runs the per-turn hooks", hot)
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
		// True of every fresh install until its first session: information,
		// not a warning (a plugin Claude Code does not load is warned above).
		rep.add("ok", "", "no hook has run yet: they run from the next Claude Code session (log %s)", filepath.Join(dir, "hooks.log"))
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
	store := shortterm.Store{Root: dir}
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
			if st.Over(now) {
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

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
