package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/hook"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/safefs"
	"github.com/spf13/cobra"
)

// NestedEnv is set in the environment of every Claude Code process cerebro
// starts itself (the claude distiller, extreme recall): hooks seeing it do
// nothing, so a nested session never captures, flushes or recurses.
const NestedEnv = claude.NestedEnv

// HookOptions are the inputs of `memhook hook <event>`.
type HookOptions struct {
	*Factory
	Event string
}

// hookRun is what a handler gets: the decoded input and the run's log.
type hookRun struct {
	*Factory
	In      *hook.Input
	Log     *runlog.Log
	root    string // the session's project, resolved once by the framework
	rootErr error
}

// hookRoot resolves the project of a hook's session: its cwd, else the
// project dir Claude Code exports, mapped to the project root.
func (f *Factory) hookRoot(in *hook.Input) (string, error) {
	cwd := in.CWD
	if cwd == "" {
		cwd = f.Getenv("CLAUDE_PROJECT_DIR")
	}
	if cwd == "" {
		return "", errors.New("resolve project: the hook input has no cwd")
	}
	return project.RootFor(cwd, f.Paths.Home)
}

// hookHandler does one event's work and returns what to print on stdout
// (nil for nothing). It must honour ctx: past the deadline its result is
// dropped, and files it writes must already be whole at every step.
type hookHandler func(ctx context.Context, r *hookRun) ([]byte, error)

// hookHandlers maps the event argument to its handler.
func hookHandlers() map[string]hookHandler {
	h := shortTermHandlers()
	h["post-tool-use"] = hookPostToolUse
	return h
}

func newCmdHook(f *Factory, runF func(*HookOptions) error) *cobra.Command {
	opts := &HookOptions{Factory: f}
	return &cobra.Command{
		Use:   "hook EVENT",
		Short: "Handle a Claude Code hook event (reads the hook JSON on stdin)",
		Long:  "Handle a Claude Code hook event. Always exits 0: errors go to the log in the state dir.",
		Args:  cobra.ExactArgs(1),
		// Claude Code calls it, people never do: kept out of --help.
		Hidden: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Event = args[0]
			if runF != nil {
				return runF(opts)
			}
			hookRunMain(opts)
			return nil
		},
	}
}

// hookFastPath runs `memhook hook EVENT` without building the command
// tree: a hook is one process per event on every turn, and building every
// cobra command costs about half as much again as a Stop's own work.
// Anything else (flags, help, a wrong argument count) goes through cobra.
func hookFastPath(f *Factory, args []string) bool {
	if len(args) != 2 || args[0] != "hook" || strings.HasPrefix(args[1], "-") {
		return false
	}
	hookRunMain(&HookOptions{Factory: f, Event: args[1]})
	return true
}

// hookRunMain never returns an error: a hook fails open. Its only output is
// the handler's JSON, written whole after the handler finished in time.
func hookRunMain(opts *HookOptions) {
	start := opts.Now()
	if opts.Getenv(NestedEnv) != "" {
		io.Copy(io.Discard, io.LimitReader(opts.In, hook.MaxInput))
		return
	}
	// The input comes first so that the configuration is loaded once, for
	// the session's project, and shared with the handler.
	in, inErr := hook.Decode(opts.In)
	var root string
	rootErr := inErr
	if inErr == nil {
		root, rootErr = opts.hookRoot(in)
	}
	eff, cfgErr := opts.Config(root)
	logMax := int64(1 << 20)
	deadline := 4 * time.Second
	if cfgErr == nil {
		logMax = eff.Hook.LogMaxKB << 10
		deadline = time.Duration(eff.Hook.DeadlineMS) * time.Millisecond
	}
	log := runlog.Open(opts.Paths.Logs(), logMax)
	entry := runlog.Entry{Time: start, Event: opts.Event}
	defer func() {
		if p := recover(); p != nil {
			entry.Level, entry.Message = "error", fmt.Sprintf("panic: %v", p)
		}
		entry.MS = float64(opts.Now().Sub(start).Microseconds()) / 1000
		log.Write(entry)
	}()
	if cfgErr != nil {
		entry.Level, entry.Message = "warn", cfgErr.Error()
	} else {
		logConfigWarnings(log, opts.Paths.Logs(), eff.Warnings, start)
	}
	handler, ok := hookHandlers()[opts.Event]
	if !ok {
		entry.Level, entry.Message = "error", fmt.Sprintf("unknown hook event %q", opts.Event)
		return
	}
	if inErr != nil {
		entry.Level, entry.Message = "error", fmt.Sprintf("skip: %v", inErr)
		return
	}
	entry.Session = in.SessionID
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	type result struct {
		out []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{err: fmt.Errorf("panic: %v", p)}
			}
		}()
		out, err := handler(ctx, &hookRun{Factory: opts.Factory, In: in, Log: log, root: root, rootErr: rootErr})
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			entry.Level, entry.Message = "error", r.err.Error()
		}
		if len(r.out) > 0 {
			opts.Out.Write(r.out)
		}
	case <-ctx.Done():
		entry.Level, entry.Message = "error", fmt.Sprintf("deadline of %s passed; output dropped", deadline)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) && entry.Level != "error" {
		entry.Level = "warn"
	}
}

// logConfigWarnings writes the configuration's warnings to the hook log
// once, not on every hook: the last set logged is remembered by its hash in
// the log folder. The hooks go on with the defaults for the keys at fault.
func logConfigWarnings(log *runlog.Log, dir string, warnings []string, now time.Time) {
	if len(warnings) == 0 {
		return
	}
	sum := sha256.Sum256([]byte(strings.Join(warnings, "\n")))
	mark := filepath.Join(dir, "config-warnings.sha256")
	tag := hex.EncodeToString(sum[:])
	if old, err := safefs.ReadFile(mark, 1<<10); err == nil && string(old) == tag {
		return
	}
	for _, w := range warnings {
		log.Write(runlog.Entry{Time: now, Event: "config", Level: "warn", Message: w + " (defaults used; see memhook doctor)"})
	}
	atomicfile.ReplaceUnsynced(mark, []byte(tag), 0o600)
}
