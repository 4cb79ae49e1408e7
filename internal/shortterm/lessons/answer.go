package lessons

import (
	"fmt"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/hook"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/runlog"
)

// HookEnv is a tool hook's view of its project's lessons, from the
// decoded call and the effective settings. memhook's handlers use it too,
// so both binaries answer a tool hook the same way.
func HookEnv(c *hook.Call, cfg *config.Effective, paths config.Paths, now func() time.Time) Env {
	return Env{
		Root: c.Root, Session: c.In.SessionID, Raw: c.In.Raw, Now: now(),
		Remind: cfg.Lessons.Remind, Enforce: cfg.Lessons.Enforce, RetireAfter: cfg.Lessons.RetireAfter,
		Record: RecordFor(paths.State, project.ID(c.Root)),
	}
}

// PreToolUse answers the PreToolUse hook from the project's lessons.
func PreToolUse(c *hook.Call, env Env) ([]byte, error) {
	a, err := Before(env)
	noteReminder(c, env.Now, a)
	return hook.PreToolUseOutput(a.Context, a.Decision, a.Reason), err
}

// AfterToolUse answers PostToolUse (failed false) and PostToolUseFailure.
func AfterToolUse(c *hook.Call, env Env, failed bool) ([]byte, error) {
	a, err := After(env, failed)
	noteReminder(c, env.Now, a)
	event := hook.PostToolUse
	if failed {
		event = hook.PostToolUseFailure
	}
	return hook.AddContext(event, a.Context), err
}

// noteReminder logs a reminder or a decision given, so that the hook log
// shows what the model was told.
func noteReminder(c *hook.Call, now time.Time, a Answer) {
	if a.Key == "" || c.Log == nil {
		return
	}
	msg := "lesson reminder: " + a.Key
	if a.Decision != "" {
		msg = fmt.Sprintf("lesson enforced (%s): %s", a.Decision, a.Key)
	}
	// Its own event name: the hook's run has its entry already.
	c.Log.Write(runlog.Entry{Time: now, Event: "lesson", Session: c.In.SessionID, Level: "info", Message: msg})
}
