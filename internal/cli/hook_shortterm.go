package cli

import (
	"context"

	"github.com/cerebro-mem/cerebro/internal/hook"
	"github.com/cerebro-mem/cerebro/internal/shortterm"
	"github.com/cerebro-mem/cerebro/internal/shortterm/handover"
)

// The short-term hooks: each handler hands the decoded input to the one
// method of shortterm.Memory for its event; the lifecycle is all there.
func shortTermHandlers() map[string]hookHandler {
	return map[string]hookHandler{
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
	if r.rootErr != nil {
		return shortterm.Hook{}, r.rootErr
	}
	return shortterm.Hook{Root: r.root, SessionID: r.In.SessionID, Transcript: r.In.TranscriptPath, Text: text, Source: r.In.Source,
		Captured: r.Getenv(hook.CapturedEnv) == r.In.SessionID}, nil
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
	return hook.PromptContext(block), nil
}

func hookStop(ctx context.Context, r *hookRun) ([]byte, error) {
	r.skillHook().Stop() // evolve: closes a skill-driven turn's run record (docs/skills.md)
	h, err := r.shortHook(r.In.LastAssistantMessage)
	if err != nil {
		return nil, err
	}
	return nil, r.ShortTerm(r.Log).Stop(ctx, h)
}

// quiet is the handler of an event that prints nothing: the hook's input
// handed to its method of shortterm.Memory.
func quiet(event func(*shortterm.Memory, context.Context, shortterm.Hook) error) hookHandler {
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
	text, err := r.ShortTerm(r.Log).SessionStart(ctx, h)
	notice := ""
	if cfg := r.Config(r.root); cfg.Inject.Notice {
		notice = shortterm.RecallNotice(text)
	}
	return hook.SessionStartNotice(text, notice), err
}
