package factory

import (
	"context"
	"errors"

	"github.com/cerebro-mem/cerebro/internal/hook"
	"github.com/cerebro-mem/cerebro/internal/shortterm"
	"github.com/cerebro-mem/cerebro/internal/shortterm/handover"
	"github.com/cerebro-mem/cerebro/internal/shortterm/lessons"
	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
	"github.com/tidwall/gjson"
)

// HookHandlers maps each hook event memhook handles (its `hook EVENT`
// argument) to the domain calls it makes. A handler returns what the
// event prints on stdout; hook.Run prints it, logs and fails open.
func (f *Factory) HookHandlers() map[string]hook.Handler {
	handlers := shortTermHandlers()
	handlers["post-tool-use"] = hookPostToolUse
	handlers["pre-tool-use"] = hookPreToolUse
	handlers["post-tool-use-failure"] = hookPostToolUseFailure
	out := make(map[string]hook.Handler, len(handlers))
	for event, h := range handlers {
		out[event] = func(ctx context.Context, c *hook.Call) ([]byte, error) {
			return h(ctx, &hookRun{Factory: f, Call: c})
		}
	}
	return out
}

// hookRun is what a handler gets: the factory and the decoded call, its
// project resolved once by hook.Run.
type hookRun struct {
	*Factory
	*hook.Call
}

// hookFunc is a [hook.Handler] that gets the factory with its call.
type hookFunc func(ctx context.Context, r *hookRun) ([]byte, error)

// The short-term hooks: each handler hands the decoded input to the one
// method of shortterm.Memory for its event; the lifecycle is all there.
func shortTermHandlers() map[string]hookFunc {
	return map[string]hookFunc{
		"session-start":      hookSessionStart,
		"user-prompt-submit": hookUserPromptSubmit,
		"stop":               hookStop,
		"pre-compact":        quiet((*shortterm.Memory).PreCompact),
		"session-end":        quiet((*shortterm.Memory).SessionEnd),
	}
}

// shortHook is the hook's input as shortterm takes it; text is the
// event's message, if any.
func (r *hookRun) shortHook(text string) (shortterm.Hook, error) {
	if r.RootErr != nil {
		return shortterm.Hook{}, r.RootErr
	}
	h := shortterm.Hook{Root: r.Root, SessionID: r.In.SessionID, Transcript: r.In.TranscriptPath, Text: text, Source: r.In.Source}
	if r.Handed != nil {
		h.Captured = r.Handed.Captured
		// Decided with the project: memhook-hot's answer stands.
		h.FlushDecided, h.FlushDue = r.Handed.Root != "", r.Handed.FlushDue
	}
	return h, nil
}

// turnOpen says whether a skill drives the session's turn: memhook-hot's
// answer when it handed its decisions over, else one stat of the marker.
func (r *hookRun) turnOpen() bool {
	if r.Handed != nil && r.Handed.Root != "" {
		return r.Handed.TurnOpen
	}
	return r.RootErr == nil && handover.TurnOpen(r.Paths, r.Root, r.In.SessionID)
}

func hookUserPromptSubmit(ctx context.Context, r *hookRun) ([]byte, error) {
	h, err := r.shortHook(r.In.Prompt)
	if err != nil {
		return nil, err
	}
	if err := r.ShortTerm(r.Log).UserPromptSubmit(h); err != nil {
		return nil, err
	}
	// auto-recall, when search.auto_recall is on and the prompt is no slash command
	cfg := r.Config(h.Root)
	if handover.Prompt(cfg, r.In.Prompt) == "" {
		return nil, nil
	}
	block, err := r.AutoRecall(ctx, h.Root, r.In.Prompt)
	if err != nil {
		return nil, err
	}
	return hook.AddContext(hook.UserPromptSubmit, block), nil
}

// hookStop closes the run record of a turn a skill drove (evolve, only
// when one did: docs/skills.md), then captures and flushes (shortterm).
func hookStop(ctx context.Context, r *hookRun) ([]byte, error) {
	h, err := r.shortHook(r.In.LastAssistantMessage)
	if err != nil {
		return nil, err
	}
	if r.turnOpen() {
		r.skillHook().Stop()
	}
	return nil, r.ShortTerm(r.Log).Stop(ctx, h)
}

// quiet is the handler of an event that prints nothing: the hook's input
// handed to its method of shortterm.Memory.
func quiet(event func(*shortterm.Memory, context.Context, shortterm.Hook) error) hookFunc {
	return func(ctx context.Context, r *hookRun) ([]byte, error) {
		h, err := r.shortHook("")
		if err != nil {
			return nil, err
		}
		return nil, event(r.ShortTerm(r.Log), ctx, h)
	}
}

// hookSessionStart prints the recalled memory shortterm built, with one
// line for the person saying how much was recalled (inject.notice); its
// errors go to the log, and whatever text was built is still handed over.
func hookSessionStart(ctx context.Context, r *hookRun) ([]byte, error) {
	h, err := r.shortHook("")
	if err != nil {
		return nil, err
	}
	in, err := r.ShortTerm(r.Log).SessionStart(ctx, h)
	return hook.SessionStartNotice(in.Text, in.Notice), err
}

// hookPostToolUse hands the tool to the skills (evolve.SkillHook): an
// edit of a skill file is committed, a turn the Skill tool drives is
// recorded. Other tools cost one stat of the session's open-turn marker.
func hookPostToolUse(ctx context.Context, r *hookRun) ([]byte, error) {
	// The lessons are answered here whether or not memhook-hot handed the
	// event over: it answers them itself only when it does not.
	out, lerr := r.lessonsAfter(false)
	if handover.PostToolUse(r.In, r.turnOpen()) == "" {
		return out, lerr // memhook-hot asks the same and does not hand the event over
	}
	err := r.skillHook().PostToolUse(evolve.ToolUse{Tool: r.In.ToolName, FilePath: r.In.ToolFilePath, CWD: r.In.CWD,
		Command: gjson.GetBytes(r.In.Raw, "tool_input.command").String(), Skill: gjson.GetBytes(r.In.Raw, "tool_input.skill").String()})
	return out, errors.Join(err, lerr)
}

// hookPreToolUse gives the lesson of a call about to run; memhook-hot
// answers it the same way (package lessons).
func hookPreToolUse(ctx context.Context, r *hookRun) ([]byte, error) {
	if r.RootErr != nil {
		return nil, r.RootErr
	}
	return lessons.PreToolUse(r.Call, lessons.HookEnv(r.Call, r.Config(r.Root), r.Paths, r.Now))
}

func hookPostToolUseFailure(ctx context.Context, r *hookRun) ([]byte, error) {
	return r.lessonsAfter(true)
}

func (r *hookRun) lessonsAfter(failed bool) ([]byte, error) {
	if r.RootErr != nil {
		return nil, r.RootErr
	}
	return lessons.AfterToolUse(r.Call, lessons.HookEnv(r.Call, r.Config(r.Root), r.Paths, r.Now), failed)
}

// skillHook is the session's turn as the skills record it, its log the
// hook's.
func (r *hookRun) skillHook() evolve.SkillHook {
	root := r.Root
	if r.RootErr != nil {
		root = ""
	}
	return r.SkillHook(root, r.In.SessionID, r.Log)
}
