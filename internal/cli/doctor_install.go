package cli

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
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
	data, err := safefs.ReadFile(path, 1<<20)
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
	data, _ := safefs.ReadFile(manifest, 1<<20)
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
