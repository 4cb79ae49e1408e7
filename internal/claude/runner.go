// Package claude runs one headless `claude -p` the way every part of cerebro
// that calls a model must: bounded in time and output, with the prompt on
// standard input (argv is readable by every local user through ps, and is
// capped at 128 KiB), through the secret guard the caller names, outside the
// caller's Claude Code session, and with every process it started killed at
// the deadline so nothing outlives memhook.
//
// Use it as
//
//	r := claude.Runner{Command: "claude", Timeout: time.Minute, Env: env, Dir: root, Guard: secrets.Redacted}
//	res, err := r.Run(ctx, claude.Call{Prompt: prompt, AllowedTools: "Read,Grep"})
//
// and check errors.Is(err, claude.ErrTimeout). The child's environment marks
// it nested (NestedEnv), so cerebro's own hooks inside it do nothing and a
// recall it makes never starts another model call.
package claude

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"time"
)

// NestedEnv is set in the environment of every claude process cerebro
// starts; a memhook that sees it knows it runs inside cerebro's own call.
const NestedEnv = "CEREBRO_NESTED"

// insideEnv marks a shell started by Claude Code. A child carrying it would
// think it runs inside the parent's session.
const insideEnv = "CLAUDECODE"

// Defaults for a Runner's zero fields.
const (
	DefaultTimeout   = 120 * time.Second
	DefaultMaxOutput = 256 << 10
	// waitDelay bounds how long Run reads pipes that a descendant the
	// sweep could not end still holds open.
	waitDelay      = 2 * time.Second
	maxStderrShown = 500
)

// ErrTimeout means the call did not finish within its timeout; the process
// group was killed.
var ErrTimeout = errors.New("timed out")

// Runner holds what stays the same between calls.
type Runner struct {
	Command   string        // the claude executable; "claude" when empty
	Timeout   time.Duration // the whole call; DefaultTimeout when 0
	Env       []string      // the child's whole environment; cleaned and marked nested by Run
	Dir       string        // the child's working directory; the caller's when empty
	MaxOutput int           // bytes of stdout kept; DefaultMaxOutput when 0
	// Guard is the secret guard every prompt passes before it leaves for
	// the model (secrets.Redacted, or [Unguarded] when the user switched
	// short.scan_secrets off). Run refuses a call without one, so no
	// caller sends memory text to a model by forgetting it.
	Guard func(prompt string) string
}

// Unguarded is the guard that lets a prompt through as it is: only for a
// user who switched the secret scan off.
func Unguarded(prompt string) string { return prompt }

// ErrNoGuard means a Runner was used without a Guard.
var ErrNoGuard = errors.New("no secret guard set for the prompt")

// Call is one request.
type Call struct {
	Prompt       string   // sent on stdin
	Model        string   // optional --model
	AllowedTools string   // optional --allowedTools; -p grants no tool without it
	Args         []string // further flags, appended as given
}

// Result is what a finished call produced.
type Result struct {
	Output    string  // stdout, at most MaxOutput bytes
	Truncated bool    // stdout was longer than MaxOutput
	Seconds   float64 // wall time of the call
}

// Run starts `claude -p --output-format text`, writes the prompt to its
// stdin, and waits for it within the timeout. A non-zero exit is an error
// carrying the start of stderr.
func (r Runner) Run(ctx context.Context, c Call) (Result, error) {
	name := r.Command
	if name == "" {
		name = "claude"
	}
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	max := r.MaxOutput
	if max <= 0 {
		max = DefaultMaxOutput
	}
	if r.Guard == nil {
		return Result{}, fmt.Errorf("run %s: %w", name, ErrNoGuard)
	}
	prompt := r.Guard(c.Prompt)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	args := []string{"-p", "--output-format", "text"}
	if c.Model != "" {
		args = append(args, "--model", c.Model)
	}
	if c.AllowedTools != "" {
		args = append(args, "--allowedTools", c.AllowedTools)
	}
	args = append(args, c.Args...)
	marker := runMarker()
	cmd := exec.Command(name, args...)
	cmd.Dir = r.Dir
	cmd.Env = append(ChildEnv(r.Env), RunEnv+"="+marker)
	// The pipes are the runner's own files, not exec's copying goroutines:
	// Wait then returns when the child exits, however long a descendant
	// holds a pipe, and the sweep below ends such holders before the
	// output is read to its end.
	var pipes [6]*os.File
	closeAll := func() {
		for _, f := range pipes {
			if f != nil {
				f.Close()
			}
		}
	}
	for i := 0; i < 6; i += 2 {
		rd, wr, err := os.Pipe()
		if err != nil {
			closeAll()
			return Result{}, fmt.Errorf("run %s: make a pipe: %w", name, err)
		}
		pipes[i], pipes[i+1] = rd, wr
	}
	inR, inW, outR, outW, errR, errW := pipes[0], pipes[1], pipes[2], pipes[3], pipes[4], pipes[5]
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	startOwnGroup(cmd)
	sw := startSweep(marker)

	start := time.Now()
	if err := cmd.Start(); err != nil {
		sw.finish(0)
		closeAll()
		return Result{}, fmt.Errorf("run %s: %w", name, err)
	}
	sw.started(cmd.Process.Pid)
	inR.Close()
	outW.Close()
	errW.Close()
	go func() {
		inW.WriteString(prompt)
		inW.Close()
	}()
	stdout := &capped{max: max}
	stderr := &capped{max: 4 << 10}
	read := func(f *os.File, into *capped) chan struct{} {
		done := make(chan struct{})
		go func() {
			io.Copy(into, f)
			close(done)
		}()
		return done
	}
	outDone, errDone := read(outR, stdout), read(errR, stderr)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var err error
	select {
	case err = <-exited:
	case <-ctx.Done():
		killGroup(cmd)
		err = <-exited
	}
	// Whatever the call left running — in its group, in a new session, or
	// orphaned here — ends now.
	sw.finish(cmd.Process.Pid)
	inW.Close()
	for _, done := range []chan struct{}{outDone, errDone} {
		select {
		case <-done:
		case <-time.After(waitDelay):
			// A holder the sweep could not end: stop reading.
			outR.Close()
			errR.Close()
			<-done
		}
	}
	outR.Close()
	errR.Close()
	res := Result{Output: stdout.String(), Truncated: stdout.over, Seconds: time.Since(start).Seconds()}
	if cerr := ctx.Err(); cerr != nil {
		if errors.Is(cerr, context.DeadlineExceeded) {
			return res, fmt.Errorf("run %s: %w after %s", name, ErrTimeout, timeout)
		}
		return res, fmt.Errorf("run %s: %w", name, cerr)
	}
	if err != nil {
		if msg := oneLine(stderr.String()); msg != "" {
			return res, fmt.Errorf("run %s: %w: %s", name, err, clip(msg, maxStderrShown))
		}
		return res, fmt.Errorf("run %s: %w", name, err)
	}
	return res, nil
}

// RunEnv carries a marker unique to one call in the environment of every
// process the call starts, so the runner can find the ones that left its
// process group (see sweep_linux.go).
const RunEnv = "CEREBRO_RUN"

var runSeq atomic.Int64

func runMarker() string {
	return fmt.Sprintf("%d-%d-%d", os.Getpid(), time.Now().UnixNano(), runSeq.Add(1))
}

// ChildEnv is env without the inside-Claude-Code marker and with the nested
// marker set once.
func ChildEnv(env []string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if k == insideEnv || k == NestedEnv {
			continue
		}
		out = append(out, kv)
	}
	return append(out, NestedEnv+"=1")
}

// Nested tells whether env belongs to a process cerebro started through a
// Runner: such a process must not call a model again.
func Nested(env []string) bool {
	for _, kv := range env {
		if k, v, _ := strings.Cut(kv, "="); k == NestedEnv && v != "" {
			return true
		}
	}
	return false
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 { // not inside a UTF-8 sequence
		cut--
	}
	return s[:cut] + "…"
}

// capped keeps at most max bytes and notes overflow. It must not offer
// ReadFrom (as an embedded bytes.Buffer would): io.Copy would bypass the cap.
type capped struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room < len(p) {
		c.over = true
		if room > 0 {
			c.buf.Write(p[:room])
		}
		return len(p), nil
	}
	return c.buf.Write(p)
}

func (c *capped) String() string { return c.buf.String() }
