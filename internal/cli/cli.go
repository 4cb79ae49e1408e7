// Package cli is memhook's command line: the only package that imports
// cobra. Each command fills an options struct, checks its flags (usage
// errors: flagcheck.go), makes one call and prints; the options name the
// functions of [factory.Factory] the command uses, which open the
// project's memory with its effective settings for the command as they do
// for the MCP server and the web app. Run functions are called directly
// by tests, without cobra, with only those functions set.
//
// [Main] runs one invocation with injected streams, environment and clock
// and returns the exit code. Errors are printed once, here, as
// "memhook: error: ..." with a "memhook: hint: ..." line when the error
// carries one, and exit 1, or 2 for a command line that cannot run (an
// unknown command or flag, a flag value out of its set: flagcheck.go);
// hook commands never fail (see hook.go).
package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/hook"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Version is set at build time with -ldflags "-X ...cli.Version=...".
var Version = "0.1.0-dev"

// exitError asks Main for a specific exit code without printing anything
// more (lint uses 1 for "found errors").
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// Main runs memhook with args and returns the process exit code.
func Main(args []string, sys factory.System) int {
	f := factory.New(sys)
	// Every command and hook of this process runs on one clock, which
	// CEREBRO_NOW may set (a replayed week); a hook logs a bad value.
	now, clockErr := hook.Clock(f.Getenv, f.Now)
	f.Now = now
	if clockErr != nil && (len(args) == 0 || args[0] != "hook") {
		fmt.Fprintf(f.Err, "memhook: warning: %v\n", clockErr)
	}
	// Every write under the desk or the state dir stays inside it.
	safefs.SetRoots(f.Paths.Home, f.Paths.State)
	if hookFastPath(f, args) {
		return 0
	}
	root := newRootCmd(f)
	root.SetArgs(args)
	root.SetIn(sys.In)
	root.SetOut(sys.Out)
	root.SetErr(sys.Err)
	cmd, err := root.ExecuteC()
	if err == nil {
		return 0
	}
	err = requiredFlagError(cmd, err)
	code := printError(sys.Err, err)
	var usage *usageError
	if code == 1 && errors.As(err, &usage) {
		return 2 // the command line was wrong (flagcheck.go)
	}
	return code
}

// printError prints err once, with its hint, and returns the exit code
// it asks for: an exitError's own (printing nothing), else 1.
func printError(w io.Writer, err error) int {
	var ex *exitError
	if errors.As(err, &ex) {
		return ex.code
	}
	fmt.Fprintf(w, "memhook: error: %v\n", err)
	if h := hint.Of(err); h != "" {
		fmt.Fprintf(w, "memhook: hint: %s\n", h)
	}
	return 1
}
