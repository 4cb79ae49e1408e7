// Package factory is how a front end — the CLI, the MCP server, the web
// app — opens a project's memory with its effective settings through one
// value: a [Factory] holds what the process takes from the outside world
// ([System]), the resolved paths and the settings of each project root it
// has loaded, and its methods turn a directory into an opened domain value
// (the black box, the long-term store, the searchable memory, the skills,
// the short-term memory) the same way for every front end.
//
// A front end builds one with [New] (the real process: [OS]) and asks it:
//
//	f := factory.New(factory.OS())
//	s, root, err := f.LongStore(dir)
//
// It prints nothing but warnings, on the System's Err; what a command
// shows is its front end's business. Errors may carry a hint for the
// person ([hint.Wrap]), which the front end prints.
package factory

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/mattn/go-isatty"
)

// System is everything an invocation takes from the outside world.
type System struct {
	In     io.Reader
	Out    io.Writer
	Err    io.Writer
	Getenv func(string) string
	// Environ is the whole environment, for child processes cerebro starts.
	Environ func() []string
	Now     func() time.Time
	// Terminal reports whether stderr is a terminal: progress is shown only
	// there.
	Terminal bool
	// Executable is the path of the running memhook, for commands that
	// start memhook again in the background or write it into a scheduler.
	Executable string
}

// OS returns the real process's streams, environment and clock.
func OS() System {
	exe, _ := os.Executable()
	return System{
		In: os.Stdin, Out: os.Stdout, Err: os.Stderr,
		Getenv:     os.Getenv,
		Environ:    os.Environ,
		Now:        time.Now,
		Terminal:   isatty.IsTerminal(os.Stderr.Fd()) || isatty.IsCygwinTerminal(os.Stderr.Fd()),
		Executable: exe,
	}
}

// Factory hands front ends what they need. What is loaded from disk is
// a field that is a func, built on first use and kept for the run (as
// cli/cli's factory does), so that a hook pays only for what it uses; the
// comment on each says what it depends on. What the run changes while it
// goes — the registry a flush or an import adds to, a project's indexes —
// is read afresh on each use instead.
type Factory struct {
	System
	Paths config.Paths
	// Config is the effective configuration of a project root ("" for
	// none), loaded once per root and run: a hook's framework and its
	// handler share it. It cannot fail: what a file holds wrongly is a
	// warning on the result. Depends on Getenv.
	Config func(projectRoot string) *config.Effective
	// PluginRoot is the plugin's folder (pluginRoot), found once. Depends
	// on Executable and Getenv.
	PluginRoot func() string
	// ProjectRoot is the project of a directory (projectRootFunc),
	// resolved once per directory and desk. Depends on Paths.Home.
	ProjectRoot func(dir string) (string, error)
}

// New is the factory of sys, its paths resolved from sys's environment.
// What sys leaves nil is neutral: no environment, the wall clock.
func New(sys System) *Factory {
	if sys.Getenv == nil {
		sys.Getenv = func(string) string { return "" }
	}
	if sys.Environ == nil {
		sys.Environ = func() []string { return nil }
	}
	if sys.Now == nil {
		sys.Now = time.Now
	}
	f := &Factory{System: sys, Paths: config.ResolvePaths(sys.Getenv)}
	f.Config = configFunc(f)           // depends on Getenv
	f.PluginRoot = pluginRootFunc(f)   // depends on Executable, Getenv
	f.ProjectRoot = projectRootFunc(f) // depends on Paths.Home
	return f
}

// configFunc loads each root's configuration on first use. The cache is
// guarded: the web app's handlers share one factory.
func configFunc(f *Factory) func(string) *config.Effective {
	var mu sync.Mutex
	loaded := map[string]*config.Effective{}
	return func(root string) *config.Effective {
		mu.Lock()
		defer mu.Unlock()
		if eff, ok := loaded[root]; ok {
			return eff
		}
		eff := config.Load(f.Getenv, root)
		loaded[root] = eff
		return eff
	}
}

// pluginRootFunc finds the plugin's folder on first use.
func pluginRootFunc(f *Factory) func() string {
	return sync.OnceValue(func() string { return pluginRoot(f.Executable, f.Getenv) })
}

// Warn prints a warning on stderr.
func (f *Factory) Warn(msg string) { fmt.Fprintf(f.Err, "memhook: warning: %s\n", msg) }
