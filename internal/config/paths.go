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
	// StateWhy says which rule chose State, for `memhook doctor`.
	StateWhy string
}

// InstalledPluginData is the folder name Claude Code gives the data dir of
// cerebro installed from its own marketplace (named cerebro):
// <plugin>-<marketplace>. `claude --plugin-dir` uses cerebro-inline.
const InstalledPluginData = "cerebro-cerebro"

// ResolvePaths applies the documented defaults: CEREBRO_HOME or ~/cerebro;
// CLAUDE_PLUGIN_DATA (set by Claude Code for hooks), else CEREBRO_STATE_DIR,
// else the data dir of the plugin installed from its marketplace. The last
// is one fixed folder on purpose: picking whichever data dir was used last
// made a terminal's memhook switch state silently after one
// `claude --plugin-dir` run.
func ResolvePaths(env Env) Paths {
	home := env("CEREBRO_HOME")
	if home == "" {
		home = filepath.Join(homeDir(env), "cerebro")
	}
	if s := env("CLAUDE_PLUGIN_DATA"); s != "" {
		return Paths{Home: home, State: s, StateWhy: "CLAUDE_PLUGIN_DATA, set by Claude Code for the plugin's hooks"}
	}
	if s := env("CEREBRO_STATE_DIR"); s != "" {
		return Paths{Home: home, State: s, StateWhy: "CEREBRO_STATE_DIR"}
	}
	return Paths{Home: home, State: filepath.Join(PluginDataRoot(env), InstalledPluginData),
		StateWhy: "the default: the data dir Claude Code gives the plugin installed from its marketplace (`make install`), shared with its hooks"}
}

// PluginDataRoot is the folder holding every plugin's data dir:
// $CLAUDE_CONFIG_DIR/plugins/data, default ~/.claude/plugins/data.
func PluginDataRoot(env Env) string {
	return filepath.Join(ClaudeDir(env), "plugins", "data")
}

// ClaudeDir is where Claude Code keeps the user's settings, commands and
// plugins: $CLAUDE_CONFIG_DIR, default ~/.claude.
func ClaudeDir(env Env) string {
	if d := env("CLAUDE_CONFIG_DIR"); d != "" {
		return d
	}
	return filepath.Join(homeDir(env), ".claude")
}

// StateDirFound is a state dir that exists, with its last use.
type StateDirFound struct {
	Dir     string
	LastUse time.Time // the hook log's last write, else the folder's
}

// FindStateDirs lists the state dirs that exist on this machine: every
// cerebro-* plugin data dir (installed, --plugin-dir) and the OS state
// dir older versions used. Doctor shows them beside the one in use.
func FindStateDirs(env Env) []StateDirFound {
	matches, _ := filepath.Glob(filepath.Join(PluginDataRoot(env), "cerebro-*"))
	matches = append(matches, stateDir(env))
	var out []StateDirFound
	for _, m := range matches {
		fi, err := os.Stat(m)
		if err != nil || !fi.IsDir() {
			continue
		}
		t := fi.ModTime()
		if li, err := os.Stat(filepath.Join(m, "logs", "hooks.log")); err == nil && li.ModTime().After(t) {
			t = li.ModTime()
		}
		out = append(out, StateDirFound{Dir: m, LastUse: t})
	}
	return out
}

// DeskShortDir is the desk's private short-term folder: registry, rollup,
// caches and the desk's own daily files.
func (p Paths) DeskShortDir() string { return filepath.Join(p.Home, ".claude", "memory_short") }

// Registry is the org registry of projects with long-term memory.
func (p Paths) Registry() string { return filepath.Join(p.DeskShortDir(), "registry.json") }

// Logs holds the size-capped hook log.
func (p Paths) Logs() string { return filepath.Join(p.State, "logs") }

// Runs is a project's run records (runrec's journal folder).
func (p Paths) Runs(projectID string) string { return filepath.Join(p.State, "runs", projectID) }

// OpenTurn marks a session's turn that a skill drives: PostToolUse opens
// it, Stop closes it.
func (p Paths) OpenTurn(projectID, sessionID string) string {
	return filepath.Join(p.Runs(projectID), "open", sessionID)
}

// Sessions holds per-session cursors and journals.
func (p Paths) Sessions() string { return filepath.Join(p.State, "sessions") }

// Indexes holds the search indexes, one per memory root.
func (p Paths) Indexes() string { return filepath.Join(p.State, "index") }

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
