// Package hotpath is memhook-hot, the small binary Claude Code's hooks run
// on every turn (UserPromptSubmit, Stop) and after every edit or command
// (PostToolUse). A Go process pays, before main, for the start-up of every
// package it links; memhook links SQLite, go-git and an HTTP server, which
// makes its start alone cost four to five spawns of `true`. This binary
// links only the hook frame, the configuration and the session journal
// (package capture), so a turn costs what its capture costs.
//
// It does the capture itself. Whatever is left of the event — a flush that
// became due, auto-recall, a turn a skill drives, an edit of a skill — it
// hands to memhook: it replaces itself with `memhook hook EVENT`, handing
// over what it did and decided ([hook.Handed]: the project it resolved,
// the message captured, a flush due, a skill's turn open), so that memhook
// does none of it again. Any other event is memhook's from the start. So
// memhook alone still does everything, and a plugin without memhook-hot
// works as before, only slower.
//
//	os.Exit(hotpath.Main(os.Args[1:], hotpath.OS()))
package hotpath

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/hook"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/shortterm/capture"
	"github.com/cerebro-mem/cerebro/internal/shortterm/handover"
	"github.com/cerebro-mem/cerebro/internal/shortterm/lessons"
)

// System is what the process takes from its surroundings.
type System struct {
	In     io.Reader
	Out    io.Writer
	Err    io.Writer
	Getenv func(string) string
	// Environ is memhook's environment when the event is handed over.
	Environ func() []string
	Now     func() time.Time
	// Memhook is the full memhook binary, beside this one.
	Memhook string
	// TempDir holds, for an instant, the input handed to memhook.
	TempDir string
	// Run starts memhook on an event: it replaces this process where the
	// system can (see run_unix.go), so it returns only when that failed,
	// or, elsewhere, once memhook is done.
	Run func(memhook string, args, env []string, stdin []byte, sys System) error
}

// OS is the real process.
func OS() System {
	exe, _ := os.Executable()
	name := "memhook"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	return System{
		In: os.Stdin, Out: os.Stdout, Err: os.Stderr,
		Getenv: os.Getenv, Environ: os.Environ, Now: time.Now,
		Memhook: filepath.Join(filepath.Dir(exe), name),
		Run:     runMemhook,
	}
}

// Main runs `memhook-hot hook EVENT`. Anything else is memhook's.
func Main(args []string, sys System) int {
	if len(args) != 2 || args[0] != "hook" {
		fmt.Fprintln(sys.Err, "memhook-hot: runs Claude Code's per-turn hooks (hook user-prompt-submit|stop|post-tool-use); use memhook for everything else")
		return 2
	}
	event := args[1]
	// The same clock as memhook's (CEREBRO_NOW); hook.Run logs a bad value.
	sys.Now, _ = hook.Clock(sys.Getenv, sys.Now)
	h := &hot{sys: sys, paths: config.ResolvePaths(sys.Getenv), configs: map[string]*config.Effective{}}
	handlers := map[string]hook.Handler{
		"user-prompt-submit":    h.userPromptSubmit,
		"stop":                  h.stop,
		"post-tool-use":         h.postToolUse,
		"pre-tool-use":          h.preToolUse,
		"post-tool-use-failure": h.postToolUseFailure,
	}
	if handlers[event] == nil {
		// Not a per-turn event: memhook reads the input itself.
		h.handOverFailed(event, sys.Run(sys.Memhook, args, hook.WithoutHandOver(sys.Environ()), nil, sys))
		return 0
	}
	if sys.TempDir == "" {
		sys.TempDir = h.paths.State
	}
	p := hook.Process{In: sys.In, Out: sys.Out, Getenv: sys.Getenv, Now: sys.Now, Paths: h.paths, Config: h.config}
	ho, in := hook.Run(p, event, handlers)
	if ho == nil {
		return 0
	}
	stdin := ho.Input
	if stdin == nil {
		stdin = in.Raw
	}
	env := append(hook.WithoutHandOver(sys.Environ()), ho.Env())
	h.handOverFailed(event, sys.Run(sys.Memhook, args, env, stdin, sys))
	return 0
}

// handOverFailed logs a hand-over that could not start memhook (a plugin
// whose memhook is missing or not runnable). The hook still exits 0: what
// was captured stays, and the flush comes with a later event.
func (h *hot) handOverFailed(event string, err error) {
	if err == nil {
		return
	}
	fmt.Fprintf(h.sys.Err, "memhook-hot: hand %s over to memhook: %v\n", event, err)
	log := runlog.Open(h.paths.Logs(), 1<<20)
	log.Write(runlog.Entry{Time: h.sys.Now(), Event: event, Level: "error",
		Message: fmt.Sprintf("hand over to memhook: %v (run make build in the plugin checkout)", err)})
}

// hot is one process's state: the settings are loaded once per project.
type hot struct {
	sys     System
	paths   config.Paths
	configs map[string]*config.Effective
}

func (h *hot) config(root string) *config.Effective {
	if eff, ok := h.configs[root]; ok {
		return eff
	}
	eff := config.Load(h.sys.Getenv, root)
	h.configs[root] = eff
	return eff
}

// scope is what both events resolve: the session's journal and the
// project's settings.
func (h *hot) scope(c *hook.Call) (*capture.Session, *config.Effective, error) {
	if c.RootErr != nil {
		return nil, nil, c.RootErr
	}
	cfg := h.config(c.Root)
	sess := capture.Store{Root: h.paths.Sessions()}.Session(project.ID(c.Root), c.In.SessionID)
	return sess, cfg, nil
}

// handOver is the event handed to memhook with what was done: the
// project resolved and the reason, d saying the rest.
func handOver(c *hook.Call, d hook.Handed) *hook.HandOver {
	d.Session, d.Root = c.In.SessionID, c.Root
	return &hook.HandOver{Handed: d}
}

// userPromptSubmit captures the prompt; auto-recall, when it is on, is
// memhook's (it searches the indexes).
func (h *hot) userPromptSubmit(ctx context.Context, c *hook.Call) ([]byte, error) {
	sess, cfg, err := h.scope(c)
	if err != nil {
		return nil, err
	}
	meta := capture.Meta{Project: c.Root, Transcript: c.In.TranscriptPath, LineBytes: cfg.Limits.TranscriptLineBytes}
	if _, err := sess.Capture(h.sys.Now(), "user", c.In.Prompt, meta); err != nil {
		return nil, capture.Unrecorded(c.Root, c.In.SessionID, c.In.TranscriptPath, err)
	}
	if why := handover.Prompt(cfg, c.In.Prompt); why != "" {
		return nil, handOver(c, hook.Handed{Reason: why, Captured: true})
	}
	return nil, nil
}

// stop captures the turn's final message and counts the turn; a flush that
// is now due, and a turn a skill drove (its run record is closed at Stop),
// are memhook's.
func (h *hot) stop(ctx context.Context, c *hook.Call) ([]byte, error) {
	sess, cfg, err := h.scope(c)
	if err != nil {
		return nil, err
	}
	meta := capture.Meta{Project: c.Root, Transcript: c.In.TranscriptPath, LineBytes: cfg.Limits.TranscriptLineBytes}
	st, err := sess.Capture(h.sys.Now(), "assistant", c.In.LastAssistantMessage, meta)
	if err != nil {
		return nil, capture.Unrecorded(c.Root, c.In.SessionID, c.In.TranscriptPath, err)
	}
	due, turn := handover.FlushDue(cfg, st), handover.TurnOpen(h.paths, c.Root, c.In.SessionID)
	if why := handover.Stop(due, turn); why != "" {
		// memhook needs the input's ids and paths alone: the message is
		// in the journal.
		ho := handOver(c, hook.Handed{Reason: why, Captured: true, FlushDue: due, TurnOpen: turn})
		ho.Input = c.In.Brief()
		return nil, ho
	}
	return nil, nil
}

// postToolUse notes what became of a lesson's reminder (package lessons);
// memhook commits an edit of a skill file and records the tools of a turn
// a skill drives ([handover.PostToolUse] says when).
func (h *hot) postToolUse(ctx context.Context, c *hook.Call) ([]byte, error) {
	if c.RootErr != nil {
		return nil, c.RootErr
	}
	turn := handover.TurnOpen(h.paths, c.Root, c.In.SessionID)
	if why := handover.PostToolUse(c.In, turn); why != "" {
		// memhook answers the lessons too (hookPostToolUse).
		return nil, handOver(c, hook.Handed{Reason: why, TurnOpen: turn})
	}
	return lessons.AfterToolUse(c, h.lessonsEnv(c), false)
}
