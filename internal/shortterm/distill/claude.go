package distill

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cerebro-mem/cerebro/internal/claude"
)

// NestedEnv marks the environment of a claude process cerebro starts, so
// that the nested Claude Code's own cerebro hooks do nothing.
const NestedEnv = claude.NestedEnv

// Claude distils with a nested, headless `claude -p` through the shared
// runner. It is slow (seconds) and costs a model call, so it runs outside
// any hook's time.
type Claude struct {
	Command string              // the claude executable ("claude" when empty)
	Model   string              // optional --model
	Timeout time.Duration       // the whole call, process group included (DefaultTimeout when 0)
	Env     []string            // full environment for the child; the runner marks it nested
	Guard   func(string) string // the secret guard the prompt passes (claude.Runner.Guard)
}

// DefaultTimeout bounds a call when Claude.Timeout is zero.
const DefaultTimeout = claude.DefaultTimeout

// Bounds: more than maxOutput bytes is not a distillate, and a body is
// fitted to maxClaudeBody characters.
const (
	maxOutput     = 256 << 10
	maxClaudeBody = 6000
)

// ErrTimeout means claude did not finish within the timeout.
var ErrTimeout = claude.ErrTimeout

// ErrBadOutput means claude answered, but not with a distillate.
var ErrBadOutput = errors.New("claude output is not a distillate")

// Distill sends the segment's prompt to `claude -p` on stdin — the dialogue
// never appears in argv, where any local user could read it — and returns
// the validated body. Any failure — start, exit status, timeout, output
// without the expected subsections — is an error; see [Fallback].
func (c Claude) Distill(ctx context.Context, seg Segment) (string, error) {
	if len(seg.Items) == 0 {
		return "", nil
	}
	r := claude.Runner{Command: c.Command, Timeout: c.Timeout, Env: c.Env, MaxOutput: maxOutput, Guard: c.Guard}
	res, err := r.Run(ctx, claude.Call{Prompt: Prompt(seg), Model: c.Model})
	if err != nil {
		return "", fmt.Errorf("claude distiller: %w", err)
	}
	if res.Truncated {
		return "", fmt.Errorf("claude distiller: %w: more than %d bytes", ErrBadOutput, maxOutput)
	}
	body, err := Clean(res.Output)
	if err != nil {
		return "", fmt.Errorf("claude distiller: %w", err)
	}
	return withOwnWords(body, seg), nil
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
