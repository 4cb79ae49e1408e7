package config

import (
	"os"
	"path/filepath"
	"runtime"
	"time"
)

// Paths are the fixed places cerebro reads and writes outside projects.
type Paths struct {
	Home  string // the org desk ($CEREBRO_HOME, default ~/cerebro)
	State string // plugin state: cursors, journals, logs, indexes
}

// ResolvePaths applies the documented defaults: CEREBRO_HOME or ~/cerebro;
// CLAUDE_PLUGIN_DATA (set by Claude Code for hooks), else CEREBRO_STATE_DIR,
// else the data folder Claude Code gave the installed plugin (so memhook run
// from a terminal sees the hooks' state), else the OS state dir.
func ResolvePaths(env Env) Paths {
	home := env("CEREBRO_HOME")
	if home == "" {
		home = filepath.Join(homeDir(env), "cerebro")
	}
	state := env("CLAUDE_PLUGIN_DATA")
	if state == "" {
		state = env("CEREBRO_STATE_DIR")
	}
	if state == "" {
		state = pluginDataDir(env)
	}
	if state == "" {
		state = stateDir(env)
	}
	return Paths{Home: home, State: state}
}

// DeskShortDir is the desk's private short-term folder: registry, rollup,
// caches and the desk's own daily files.
func (p Paths) DeskShortDir() string { return filepath.Join(p.Home, ".claude", "memory_short") }

// Registry is the org registry of projects with long-term memory.
func (p Paths) Registry() string { return filepath.Join(p.DeskShortDir(), "registry.json") }

// Logs holds the size-capped hook log.
func (p Paths) Logs() string { return filepath.Join(p.State, "logs") }

// Sessions holds per-session cursors and journals.
func (p Paths) Sessions() string { return filepath.Join(p.State, "sessions") }

// Indexes holds the search indexes, one per memory root.
func (p Paths) Indexes() string { return filepath.Join(p.State, "index") }

// pluginDataDir finds ~/.claude/plugins/data/cerebro-<marketplace>, the
// folder Claude Code hands cerebro's hooks as CLAUDE_PLUGIN_DATA. With
// several (installed and --plugin-dir), the one used last wins.
func pluginDataDir(env Env) string {
	claude := env("CLAUDE_CONFIG_DIR")
	if claude == "" {
		claude = filepath.Join(homeDir(env), ".claude")
	}
	matches, _ := filepath.Glob(filepath.Join(claude, "plugins", "data", "cerebro-*"))
	best, bestTime := "", time.Time{}
	for _, m := range matches {
		fi, err := os.Stat(m)
		if err != nil || !fi.IsDir() {
			continue
		}
		t := fi.ModTime()
		if li, err := os.Stat(filepath.Join(m, "logs", "hooks.log")); err == nil && li.ModTime().After(t) {
			t = li.ModTime()
		}
		if best == "" || t.After(bestTime) {
			best, bestTime = m, t
		}
	}
	return best
}

func homeDir(env Env) string {
	if h := env("HOME"); h != "" {
		return h
	}
	if h := env("USERPROFILE"); h != "" {
		return h
	}
	return "."
}

func userConfigDir(env Env) string {
	switch runtime.GOOS {
	case "windows":
		if d := env("APPDATA"); d != "" {
			return d
		}
	case "darwin":
		return filepath.Join(homeDir(env), "Library", "Application Support")
	default:
		if d := env("XDG_CONFIG_HOME"); d != "" {
			return d
		}
	}
	return filepath.Join(homeDir(env), ".config")
}

func stateDir(env Env) string {
	switch runtime.GOOS {
	case "windows":
		if d := env("LOCALAPPDATA"); d != "" {
			return filepath.Join(d, "cerebro")
		}
	case "darwin":
		return filepath.Join(homeDir(env), "Library", "Application Support", "cerebro")
	default:
		if d := env("XDG_STATE_HOME"); d != "" {
			return filepath.Join(d, "cerebro")
		}
	}
	return filepath.Join(homeDir(env), ".local", "state", "cerebro")
}
