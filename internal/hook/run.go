package hook

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

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Process is what one hook process takes from its surroundings. Both
// binaries that run hooks (memhook and the hot path's memhook-hot) fill
// it; nothing here reads the environment itself.
type Process struct {
	In     io.Reader
	Out    io.Writer
	Getenv func(string) string
	Now    func() time.Time
	Paths  config.Paths
	// Config gives a project root's effective configuration ("" for
	// none); the caller may cache it, a handler asks again.
	Config func(root string) *config.Effective
	// TakeHandOver: the process is memhook, which takes what memhook-hot
	// did and decided before it handed the event over ([Handed]).
	TakeHandOver bool
}

// Call is one event as its handler gets it.
type Call struct {
	Event string
	In    *Input
	// Root is the session's project, resolved once; RootErr says why
	// there is none.
	Root    string
	RootErr error
	Log     *runlog.Log
	// Handed is what memhook-hot did and decided before it handed the
	// event over (nil when it did not): its Root is "" and its decisions
	// unset when they were not taken ([Handed]).
	Handed *Handed
}

// Handler does one event's work and returns what to print on stdout (nil
// for nothing). It must honour ctx: past the deadline its result is
// dropped, and files it writes must already be whole at every step.
type Handler func(ctx context.Context, c *Call) ([]byte, error)

// ProjectRoot resolves the project of a hook's session: its cwd, else the
// project dir Claude Code exports, mapped to the project root.
func ProjectRoot(in *Input, getenv func(string) string, home string) (string, error) {
	cwd := in.CWD
	if cwd == "" {
		cwd = getenv("CLAUDE_PROJECT_DIR")
	}
	if cwd == "" {
		return "", errors.New("resolve project: the hook input has no cwd")
	}
	return project.RootFor(cwd, home)
}

// Run handles one event and never fails: a hook fails open. Its only
// output is the handler's JSON, written whole after the handler finished
// in time; everything else goes to the log in the state dir. It returns
// the hand-over the handler asked for, if any, with the input it read.
func Run(p Process, event string, handlers map[string]Handler) (*HandOver, *Input) {
	start := p.Now()
	safefs.SetRoots(p.Paths.Home, p.Paths.State)
	if p.Getenv(claude.NestedEnv) != "" {
		ReadInput(p.In, ReadTimeout) // drained so the writer never blocks; bounded
		return nil, nil
	}
	// The input comes first so that the configuration is loaded once, for
	// the session's project, and shared with the handler.
	in, inErr := Decode(p.In)
	var handed *Handed
	var refused error
	if inErr == nil && p.TakeHandOver {
		handed, refused = readHanded(p.Getenv, in, p.Paths.Home)
	}
	var root string
	rootErr := inErr
	switch {
	case handed != nil && handed.Root != "":
		root, rootErr = handed.Root, nil // memhook-hot resolved it; readHanded checked it is the cwd's
	case inErr == nil:
		root, rootErr = ProjectRoot(in, p.Getenv, p.Paths.Home)
	}
	eff := p.Config(root)
	logMax := eff.Hook.LogMaxKB << 10
	deadline := time.Duration(eff.Hook.DeadlineMS) * time.Millisecond
	log := runlog.Open(p.Paths.Logs(), logMax)
	entry := runlog.Entry{Time: start, Event: event}
	if handed != nil {
		entry.Level, entry.Message = "info", "from memhook-hot: "+handed.Reason
	}
	if refused != nil {
		// The work is still done, as if memhook ran alone; the log says why.
		entry.Level, entry.Message = "warn", "hand-over not taken: "+refused.Error()
		if handed != nil {
			entry.Message = "from memhook-hot: " + handed.Reason + "; " + entry.Message
		}
	}
	var handOver *HandOver
	defer func() {
		if r := recover(); r != nil {
			entry.Level, entry.Message = "error", fmt.Sprintf("panic: %v", r)
		} else if handOver != nil {
			return
		}
		entry.MS = float64(p.Now().Sub(start).Microseconds()) / 1000
		log.Write(entry)
	}()
	logConfigWarnings(log, p.Paths.Logs(), eff.Warnings, eff.Ignored, start)
	if _, err := Clock(p.Getenv, p.Now); err != nil {
		// The caller fell back to the real clock already; say why here,
		// where a hook's warnings are read.
		log.Write(runlog.Entry{Time: start, Event: event, Level: "warn", Message: err.Error()})
	}
	handler, ok := handlers[event]
	if !ok {
		entry.Level, entry.Message = "error", fmt.Sprintf("unknown hook event %q", event)
		return nil, nil
	}
	if inErr != nil {
		entry.Level, entry.Message = "error", fmt.Sprintf("skip: %v", inErr)
		return nil, nil
	}
	entry.Session = in.SessionID
	if in.AgentID != "" && (event == "stop" || in.Event == Stop || in.Event == "SubagentStop") {
		// A subagent's turn ended: its dialogue is its own transcript's,
		// so it counts no reply and flushes nothing of the main segment.
		entry.Level, entry.Message = "info", "skip: a subagent's stop ("+in.AgentID+"), not the main thread's"
		return nil, in
	}
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	type result struct {
		out []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{err: fmt.Errorf("panic: %v", r)}
			}
		}()
		out, err := handler(ctx, &Call{Event: event, In: in, Root: root, RootErr: rootErr, Log: log, Handed: handed})
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		switch {
		case errors.As(r.err, &handOver):
		case r.err != nil:
			entry.Level, entry.Message = "error", r.err.Error()
		}
		if len(r.out) > 0 {
			p.Out.Write(r.out)
		}
	case <-ctx.Done():
		entry.Level, entry.Message = "error", fmt.Sprintf("deadline of %s passed; output dropped", deadline)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) && entry.Level != "error" {
		entry.Level = "warn"
	}
	return handOver, in
}

// logConfigWarnings writes the configuration's warnings to the hook log
// once, not on every hook: the last set logged is remembered by its hash in
// the log folder. Each warning says which value the hooks use instead.
func logConfigWarnings(log *runlog.Log, dir string, warnings, ignored []string, now time.Time) {
	if len(warnings) == 0 && len(ignored) == 0 {
		return
	}
	sum := sha256.Sum256([]byte(strings.Join(warnings, "\n") + "\x00" + strings.Join(ignored, "\n")))
	mark := filepath.Join(dir, "config-warnings.sha256")
	tag := hex.EncodeToString(sum[:])
	if old, err := safefs.ReadFile(mark, 1<<10); err == nil && string(old) == tag {
		return
	}
	for _, w := range warnings {
		log.Write(runlog.Entry{Time: now, Event: "config", Level: "warn", Message: w + " (see memhook doctor)"})
	}
	// A refused project key keeps the user's value: say so, not "defaults".
	for _, w := range ignored {
		log.Write(runlog.Entry{Time: now, Event: "config", Level: "warn", Message: w + " (the user's value applies; see memhook doctor)"})
	}
	atomicfile.ReplaceUnsynced(mark, []byte(tag), 0o600)
}
