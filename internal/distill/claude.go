package distill

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// NestedEnv marks the environment of a claude process cerebro starts, so
// that the nested Claude Code's own cerebro hooks do nothing.
const NestedEnv = "CEREBRO_NESTED"

// Claude distils with a nested, headless `claude -p`. It is slow (seconds)
// and costs a model call, so it runs outside any hook's time.
type Claude struct {
	Command string        // the claude executable ("claude" when empty)
	Model   string        // optional --model
	Timeout time.Duration // the whole call, process group included (DefaultTimeout when 0)
	Env     []string      // full environment for the child (nil: this process's); Distill adds CEREBRO_NESTED=1
}

// DefaultTimeout bounds a call when Claude.Timeout is zero.
const DefaultTimeout = 120 * time.Second

// Output bounds: more than maxOutput bytes is not a distillate.
const (
	maxOutput      = 256 << 10
	maxClaudeBody  = 6000
	maxStderrShown = 500
)

// ErrTimeout means claude did not finish within the timeout.
var ErrTimeout = errors.New("timed out")

// ErrBadOutput means claude answered, but not with a distillate.
var ErrBadOutput = errors.New("claude output is not a distillate")

// Distill runs `claude -p <prompt> --output-format text` on the segment and
// returns the validated body. Any failure — start, exit status, timeout,
// output without the expected subsections — is an error; see [Fallback].
func (c Claude) Distill(ctx context.Context, seg Segment) (string, error) {
	if len(seg.Items) == 0 {
		return "", nil
	}
	name := c.Command
	if name == "" {
		name = "claude"
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	args := []string{"-p", Prompt(seg), "--output-format", "text"}
	if c.Model != "" {
		args = append(args, "--model", c.Model)
	}
	cmd := exec.CommandContext(ctx, name, args...)
	// A nil Stdin is /dev/null: claude -p waits 3 s on an open, empty pipe.
	cmd.Stdin = nil
	cmd.Env = childEnv(c.Env)
	stdout := &capped{max: maxOutput}
	stderr := &capped{max: 4 << 10}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// The whole process group goes at the deadline: claude starts helpers
	// that would otherwise outlive it and keep the pipes open.
	startOwnGroup(cmd)
	cmd.Cancel = func() error { return killGroup(cmd) }
	cmd.WaitDelay = 2 * time.Second

	err := cmd.Run()
	if cerr := ctx.Err(); cerr != nil {
		if errors.Is(cerr, context.DeadlineExceeded) {
			return "", fmt.Errorf("claude distiller: %w after %s", ErrTimeout, timeout)
		}
		return "", fmt.Errorf("claude distiller: %w", cerr)
	}
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("claude distiller: run %s: %w: %s", name, err, shorten(oneLine(msg), maxStderrShown))
		}
		return "", fmt.Errorf("claude distiller: run %s: %w", name, err)
	}
	if stdout.over {
		return "", fmt.Errorf("claude distiller: %w: more than %d bytes", ErrBadOutput, maxOutput)
	}
	body, err := Clean(stdout.String())
	if err != nil {
		return "", fmt.Errorf("claude distiller: %w", err)
	}
	return body, nil
}

// childEnv is env without CLAUDECODE, which marks a shell inside Claude
// Code, and with the nested-run guard set. The caller hands the environment
// in (Claude.Env): this package never reads the process's own.
func childEnv(env []string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if k == "CLAUDECODE" || k == NestedEnv {
			continue
		}
		out = append(out, kv)
	}
	return append(out, NestedEnv+"=1")
}

// Fallback distils with c and falls back to [Extractive] on any failure.
// usedClaude tells which one produced body; err is claude's error, for the
// log — body is usable either way.
func Fallback(ctx context.Context, c Claude, seg Segment) (body string, usedClaude bool, err error) {
	body, err = c.Distill(ctx, seg)
	if err == nil && body != "" {
		return body, true, nil
	}
	return Extractive(seg), false, err
}

// capped is a writer that keeps at most max bytes and notes overflow. It
// must not offer ReadFrom (as an embedded bytes.Buffer would): io.Copy
// would use it and bypass the cap.
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
