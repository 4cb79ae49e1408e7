package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/shortcmd"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/tidwall/gjson"
)

// The checks of the installation: which plugin copy runs, the binaries,
// PATH and the commands Claude Code loads.

// checkPluginCopy says which copy of the plugin Claude Code runs. At
// install it copies the plugin to ~/.claude/plugins/cache/…, but a plugin
// from a directory marketplace (make install registers the checkout) runs
// from that directory: CLAUDE_PLUGIN_ROOT is the checkout (with a trailing
// slash, hence the "//" in paths Claude Code writes), so `make build`
// takes effect without a reinstall and the cached copy is not used.
func checkPluginCopy(rep *Report, env *Env) {
	if r := env.Getenv("CLAUDE_PLUGIN_ROOT"); r != "" {
		rep.Add("ok", "", "plugin running from %s (CLAUDE_PLUGIN_ROOT)", filepath.Clean(r))
		return
	}
	plugins := filepath.Dir(config.PluginDataRoot(env.Getenv)) // ~/.claude/plugins
	installed := readSmallJSON(filepath.Join(plugins, "installed_plugins.json"))
	if installed == "" {
		notInstalled(rep, env)
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
			rep.Add("ok", "", "plugin %s runs from %s (a directory marketplace runs its source folder; the copy in %s is not used)", id, filepath.Clean(src.Get("path").String()), cached)
		} else {
			rep.Add("ok", "", "plugin %s runs from %s (the copy Claude Code made at install)", id, cached)
		}
		return true
	})
	if !found {
		notInstalled(rep, env)
	}
}

// ClaudeCodeInstall is the command that installs Claude Code, in every
// hint that needs it.
const ClaudeCodeInstall = "npm install -g @anthropic-ai/claude-code"

// notInstalled warns that Claude Code does not load the plugin: until it
// does, no hook runs and nothing is remembered.
func notInstalled(rep *Report, env *Env) {
	root := checkoutName(env)
	hint := "run `make install` in " + root + " (it needs the claude CLI on PATH; without it: " + ClaudeCodeInstall + "); or try it once with claude --plugin-dir " + root
	rep.Add("warn", hint, "plugin: not installed in Claude Code, so no hook runs and nothing is remembered")
}

// checkClaudeOnPath tells whether the claude CLI is on PATH: make install
// needs it to install the plugin, and the claude distiller, the shadow
// runs and extreme recall start it.
func checkClaudeOnPath(rep *Report, env *Env) {
	if p := lookPathIn(env.Getenv("PATH"), "claude"); p != "" {
		rep.Add("ok", "", "claude CLI on PATH: %s", p)
		return
	}
	rep.Add("warn", "install Claude Code: "+ClaudeCodeInstall+" (then run `make install` in "+checkoutName(env)+")",
		"claude CLI on PATH: missing (`which claude` finds nothing)")
}

// checkoutName is the plugin checkout for a hint, or its description
// when memhook runs from elsewhere.
func checkoutName(env *Env) string {
	if env.PluginRoot != "" {
		return env.PluginRoot
	}
	return "the cerebro checkout"
}

// lookPathIn finds an executable name in a PATH value (not the process's:
// doctor reads the environment it is given).
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
	data, err := safefs.ReadFile(path, 1<<20)
	if err != nil || !gjson.ValidBytes(data) {
		return ""
	}
	return string(data)
}

// checkOnPath tells whether `memhook` in a terminal finds a memhook.
func checkOnPath(rep *Report, env *Env) {
	if p := lookPathIn(env.Getenv("PATH"), "memhook"); p != "" {
		rep.Add("ok", "", "memhook on PATH: %s", p)
		return
	}
	bindir := env.Getenv("CEREBRO_BIN_DIR")
	if bindir == "" {
		bindir = env.Getenv("XDG_BIN_HOME")
	}
	if bindir == "" {
		bindir = filepath.Join(env.Getenv("HOME"), ".local", "bin")
	}
	if fi, err := os.Stat(filepath.Join(bindir, "memhook")); err == nil && !fi.IsDir() {
		rep.Add("warn", "add it to PATH, e.g. in ~/.profile: export PATH=\""+bindir+":$PATH\"", "memhook on PATH: missing; the launcher %s exists but %s is not on PATH", filepath.Join(bindir, "memhook"), bindir)
		return
	}
	rep.Add("warn", "run `make install` in the plugin checkout: it puts a memhook launcher in ~/.local/bin and says how to add that folder to PATH", "memhook on PATH: missing (`which memhook` finds nothing)")
}

// checkShortCommands says which short commands are installed, stale,
// missing or a person's own.
func checkShortCommands(rep *Report, env *Env) {
	dir := filepath.Join(env.ClaudeDir, "commands")
	st := shortcmd.Status(dir, env.ShortCommands, env.PluginRoot)
	var ours, stale, theirs, missing []string
	for _, n := range env.ShortCommands {
		switch st[n] {
		case shortcmd.Ours:
			ours = append(ours, "/"+n)
		case shortcmd.Stale:
			ours = append(ours, "/"+n)
			stale = append(stale, "/"+n)
		case shortcmd.Theirs:
			theirs = append(theirs, "/"+n)
		default:
			missing = append(missing, "/"+n)
		}
	}
	switch {
	case len(missing) == len(env.ShortCommands):
		rep.Add("warn", "run `memhook commands install` (make install does) for /org_ingest, /recall, …; /cerebro:NAME works meanwhile", "short commands in %s: missing", dir)
	case len(missing) > 0:
		rep.Add("warn", "run `memhook commands install` again", "short commands in %s: %d installed, missing %s", dir, len(ours), strings.Join(missing, " "))
	default:
		rep.Add("ok", "", "short commands in %s: %d installed", dir, len(ours))
	}
	if len(stale) > 0 {
		rep.Add("warn", "run `memhook commands install` again (make install does)", "short commands out of date, written from an older plugin or for a moved checkout: %s", strings.Join(stale, " "))
	}
	if len(theirs) > 0 {
		rep.Add("ok", "", "short commands left to a person's own file: %s (use /cerebro:NAME)", strings.Join(theirs, " "))
	}
}

// checkVersion compares the binary with the plugin it is run for (the
// checkout Env.PluginRoot names, the same one evolve and the
// commands use): a stale bin/memhook after `git pull` runs old hook code.
func checkVersion(rep *Report, env *Env) {
	root := env.PluginRoot
	if root == "" {
		rep.Add("warn", "run the memhook from the plugin's bin/ or set CLAUDE_PLUGIN_ROOT", "memhook %s; plugin.json not found to compare", env.Version)
		return
	}
	manifest := filepath.Join(root, ".claude-plugin", "plugin.json")
	data, _ := safefs.ReadFile(manifest, 1<<20)
	v := gjson.GetBytes(data, "version").String()
	if v != "" && !strings.HasPrefix(env.Version, v) {
		rep.Add("warn", "run `make build` in the plugin checkout so the hooks run the current code",
			"binary version %s differs from plugin version %s (%s)", env.Version, v, manifest)
		return
	}
	rep.Add("ok", "", "memhook %s, plugin %s", env.Version, v)
}

// checkHotBinary looks for memhook-hot beside memhook: without it the
// per-turn hooks run memhook, correct but about twice as slow; built long
// before memhook, it is stale and runs old capture code.
func checkHotBinary(rep *Report, exe string) {
	if exe == "" {
		return
	}
	hot := filepath.Join(filepath.Dir(exe), "memhook-hot"+filepath.Ext(exe))
	hi, err := os.Stat(hot)
	if err != nil {
		rep.Add("warn", "run `make build` in the plugin checkout", "%s is missing: the per-turn hooks run memhook, about twice as slow", hot)
		return
	}
	if mi, err := os.Stat(exe); err == nil && hi.ModTime().Before(mi.ModTime().Add(-10*time.Minute)) {
		rep.Add("warn", "run `make build` in the plugin checkout", "%s is older than memhook: the per-turn hooks run an older build", hot)
		return
	}
	rep.Add("ok", "", "memhook-hot %s runs the per-turn hooks", hot)
}
