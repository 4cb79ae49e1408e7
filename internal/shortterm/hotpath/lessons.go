package hotpath

import (
	"context"

	"github.com/cerebro-mem/cerebro/internal/hook"
	"github.com/cerebro-mem/cerebro/internal/shortterm/lessons"
)

func (h *hot) lessonsEnv(c *hook.Call) lessons.Env {
	return lessons.HookEnv(c, h.config(c.Root), h.paths, h.sys.Now)
}

// preToolUse gives the lesson of a call about to run (package lessons).
func (h *hot) preToolUse(ctx context.Context, c *hook.Call) ([]byte, error) {
	if c.RootErr != nil {
		return nil, c.RootErr
	}
	return lessons.PreToolUse(c, h.lessonsEnv(c))
}

// postToolUseFailure gives the fix of a call that just failed, if memory
// knows one.
func (h *hot) postToolUseFailure(ctx context.Context, c *hook.Call) ([]byte, error) {
	if c.RootErr != nil {
		return nil, c.RootErr
	}
	return lessons.AfterToolUse(c, h.lessonsEnv(c), true)
}
