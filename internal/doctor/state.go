package doctor

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/org/orgvault"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/registry"
	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/shortterm/capture"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// The checks of the project, its settings, the state dir and the logs.

func checkProject(rep *Report, env *Env) {
	root, err := env.ProjectRoot(env.Project)
	if err != nil {
		rep.Add("broken", "run doctor from inside a project, or pass --project with an existing directory", "project: %v", err)
		return
	}
	env.root = root
	// The plugin's own checkout is where people run `make install`: it is
	// not a project whose memory they mean to check.
	if _, err := os.Stat(filepath.Join(root, ".claude-plugin", "plugin.json")); err == nil && root == env.PluginRoot {
		rep.Add("ok", "", "project: none checked (this is cerebro's own checkout; run doctor in a project, or pass --project)")
		env.root = ""
		return
	}
	l := project.Layout{Root: root}
	rep.Add("ok", "", "project %s (id %s)", root, project.ID(root))
	st, _ := pathState(l.DailyDir(), true, true)
	rep.Add("ok", "", "short-term memory %s: %s", l.DailyDir(), st)
	doctorLessons(rep, env, root)
	if l.LongActive() {
		rep.Add("ok", "", "long-term memory %s: ok", l.LongDir())
		if f, err := registry.Read(env.Paths.Registry()); err == nil && f.Find(project.ID(root)) == nil && f.Find(root) == nil {
			rep.Add("warn", "if this is your project, run `memhook register "+root+"` (or /cerebro:memory_long_active on); a clone you only read can stay out",
				"long-term memory is here, but the project is not on the desk's registry: searches and recall across projects and the dashboard leave it out (a clone carrying .claude/memory_long/ is admitted only by your act)")
		}
		doctorNight(rep, l)
	} else {
		rep.Add("ok", "", "long-term memory: off (/cerebro:memory_long_active on switches it on)")
	}
}

func checkConfig(rep *Report, env *Env) {
	cfg := env.Config(env.root)
	broken := map[string]bool{}
	for _, w := range cfg.Broken {
		broken[w] = true
		rep.Add("broken", "fix the file named (the hooks use the defaults for what cannot be read meanwhile); `memhook config` shows what applies", "configuration: %s", w)
	}
	for _, w := range cfg.Warnings {
		if broken[w] {
			continue
		}
		rep.Add("warn", "fix or remove the key named (the hooks use its default meanwhile); `memhook config` lists every key and its value", "configuration: %s", w)
	}
	if k := cfg.Distiller.Kind; k != "extractive" && k != "claude" {
		rep.Add("warn", `set distiller.kind to "extractive" or "claude"`, "distiller.kind %q is unknown; extractive is used", k)
	}
}

// checkOtherStateDirs names the state dirs not in use, with their last
// use: after a `claude --plugin-dir` session the hooks wrote to
// cerebro-inline, which a terminal never reads unless told.
func checkOtherStateDirs(rep *Report, env *Env) {
	in := filepath.Clean(env.Paths.State)
	for _, d := range config.FindStateDirs(env.Getenv) {
		if filepath.Clean(d.Dir) == in {
			continue
		}
		rep.Add("ok", "", "other state dir %s, last used %s (not read; CEREBRO_STATE_DIR=%s reads it)", d.Dir, d.LastUse.Local().Format("2006-01-02 15:04"), d.Dir)
	}
}

func checkDesk(rep *Report, paths config.Paths) {
	st, _ := pathState(paths.Home, true, true)
	rep.Add("ok", "", "cerebro home (desk) %s: %s", paths.Home, st)
	st, _ = pathState(filepath.Join(paths.DeskShortDir(), "daily"), true, true)
	rep.Add("ok", "", "desk daily folder %s: %s", filepath.Join(paths.DeskShortDir(), "daily"), st)
}

func checkOrgVault(rep *Report, home string) {
	if _, err := orgvault.Open(home); err == nil {
		rep.Add("ok", "", "org vault %s: ok", home)
		return
	}
	rep.Add("ok", "", "org vault %s: %s (by /org_ingest, /org_query, /org_lint, /org_rollup or `memhook org init`)", home, pathLater)
}

// checkStateDir says which state dir is in use and why, and whether it can
// be written; it creates nothing (a fresh machine has none until the
// first hook runs).
func checkStateDir(rep *Report, paths config.Paths) {
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
			rep.Add("broken", "set CEREBRO_STATE_DIR to a writable directory", "state dir %s (%s): cannot be created: %v", dir, why, err)
			return
		}
		rep.Add("ok", "", "state dir %s: %s (chosen by %s)", dir, st, why)
		return
	}
	if err := probeWritable(dir); err != nil {
		rep.Add("broken", "set CEREBRO_STATE_DIR to a writable directory", "state dir %s is not writable: %v", dir, err)
		return
	}
	rep.Add("ok", "", "state dir %s: ok (chosen by %s)", dir, why)
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

func checkRegistry(rep *Report, path string) {
	if st, ok := pathState(path, false, true); !ok {
		rep.Add("ok", "", "registry %s: %s (by /memory_long_active on)", path, st)
		return
	}
	reg, err := registry.Read(path)
	switch {
	case errors.Is(err, registry.ErrCorrupt):
		rep.Add("broken", "move the file aside (a backup is kept by the registry repair) and start a session to re-register", "registry %s: %v", path, err)
	case err != nil:
		rep.Add("warn", "check the permissions of the cerebro home", "registry %s: %v", path, err)
	default:
		for _, p := range reg.Validate() {
			rep.Add("warn", "edit or remove the entry", "registry entry %d (%s): %s", p.Index, p.ID, p.Message)
		}
		rep.Add("ok", "", "registry %s: ok, %s", path, plural(len(reg.Projects), "project"))
	}
}

// checkHookLog reports the most recent errors of the last day and slow
// hooks, and returns the timings per event.
func checkHookLog(rep *Report, dir string, now time.Time) []runlog.Timing {
	entries, err := runlog.Open(dir, 0).Read()
	if err != nil {
		rep.Add("warn", "check the permissions of the state dir", "hook log: %v", err)
		return nil
	}
	if len(entries) == 0 {
		// True of every fresh install until its first session: information,
		// not a warning (a plugin Claude Code does not load is warned above).
		rep.Add("ok", "", "no hook has run yet: they run from the next Claude Code session (log %s)", filepath.Join(dir, "hooks.log"))
		return nil
	}
	timings, recent := runlog.Summarize(entries)
	n := 0
	for i := len(recent) - 1; i >= 0 && n < 5; i-- {
		e := recent[i]
		if now.Sub(e.Time) > 24*time.Hour {
			break
		}
		rep.Add("warn", "hooks fail open, so the session went on; the message says which step failed",
			"%s error at %s: %s", e.Event, e.Time.Local().Format("2006-01-02 15:04:05"), e.Message)
		n++
	}
	for _, t := range timings {
		if t.P95 > 1000 {
			rep.Add("warn", "a slow disk or a huge stdin; see the log for the slow runs", "%s hooks are slow: p95 %.0f ms", t.Event, t.P95)
		}
	}
	return timings
}

func checkPending(rep *Report, dir string, now time.Time) {
	store := capture.Store{Root: dir}
	ids, err := store.Projects()
	if err != nil {
		rep.Add("warn", "check the permissions of the state dir", "sessions: %v", err)
		return
	}
	stale := 0
	for _, id := range ids {
		pending, _ := store.Pending(id)
		for _, s := range pending {
			st, err := s.Load()
			if err != nil {
				rep.Add("warn", "delete the file; its session's unflushed part is then lost", "session state: %v", err)
				continue
			}
			if st.Over(now) {
				stale++
			}
		}
	}
	if stale > 0 {
		rep.Add("warn", "run `memhook flush --pending` (the next session of each project also recovers them)", "%d session(s) ended with an unflushed segment", stale)
		return
	}
	rep.Add("ok", "", "no session waiting for a flush")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
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
