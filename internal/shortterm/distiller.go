package shortterm

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/shortterm/distill"
	"github.com/cerebro-mem/cerebro/internal/text/secrets"
)

// The distiller of a flush: extractive inside the hook, or the claude
// distiller in the background run, bounded by a daily budget of calls and
// falling back to the extractive distillate; either way redacted when
// short.scan_secrets is on. Everything about that choice is in this file.

// BudgetDir holds the per-day count of claude distiller calls, under the
// state dir.
func BudgetDir(state string) string { return filepath.Join(state, claude.UseDistiller) }

// flushOptions are a flush's options with the distiller cfg names.
func (m *Memory) flushOptions(cfg *config.Effective, trigger string, final bool) FlushOptions {
	o := FlushOptions{
		Trigger: trigger, Now: m.Now(), MinReplies: cfg.Short.MinReplies, Final: final,
		Force: trigger == TriggerPreCompact, Desk: m.Desk,
		NoteBytes: cfg.Limits.NoteBytes, LineBytes: cfg.Limits.TranscriptLineBytes,
		Distill: func(ctx context.Context, seg distill.Segment) string { return distill.Extractive(seg) },
	}
	if cfg.Distiller.Kind == "claude" {
		o.Distill = m.claudeDistill(cfg)
	}
	o.Distill = redacting(cfg, o.Distill)
	if cfg.Short.ScanSecrets {
		// The title is a model's words about the session: guarded like
		// the body.
		o.Redact = func(s string) string { r, _ := secrets.RedactText(s); return r }
	}
	if point := m.Crash; point != "" {
		o.Crash = func(p string) {
			if p == point {
				os.Exit(86)
			}
		}
	}
	return o
}

// claudeDistill calls the claude distiller within the day's budget and
// falls back to the extractive distillate on any failure.
func (m *Memory) claudeDistill(cfg *config.Effective) func(ctx context.Context, seg distill.Segment) string {
	return func(ctx context.Context, seg distill.Segment) string {
		note := func(msg string) {
			m.Log.Write(runlog.Entry{Time: m.Now(), Event: "distill", Session: seg.SessionID, Level: "warn", Message: msg})
		}
		today := m.Now
		if m.Wall != nil {
			today = m.Wall
		}
		ok, err := claude.Budget{Dir: m.Budget, Limit: cfg.Distiller.DailyBudget}.Take(today())
		if err != nil || !ok {
			note(fmt.Sprintf("claude distiller skipped (daily budget of %d calls used, or %v): extractive used", cfg.Distiller.DailyBudget, err))
			return distill.Extractive(seg)
		}
		// The nested claude inherits this environment minus CLAUDECODE,
		// plus the guard that makes its own cerebro hooks do nothing.
		c := distill.Claude{
			Command: cfg.Distiller.Command, Model: cfg.Distiller.Model,
			Timeout: time.Duration(cfg.Distiller.TimeoutSeconds) * time.Second,
			Env:     m.Environ,
			Guard:   PromptGuard(cfg),
		}
		body, usedClaude, err := distill.Fallback(ctx, c, seg)
		if !usedClaude {
			note(fmt.Sprintf("claude distiller failed, extractive used: %v", err))
		}
		return body
	}
}

// PromptGuard is the secret guard of every prompt that carries memory text
// to a model (the distiller, research, the night, shadow runs): the same
// scan as the daily file's, unless the user switched short.scan_secrets off.
func PromptGuard(cfg *config.Effective) func(string) string {
	if !cfg.Short.ScanSecrets {
		return claude.Unguarded
	}
	return secrets.Redacted
}

// redacting applies short.scan_secrets: secrets and personal data in a
// distillate are replaced by markers before it is written.
func redacting(cfg *config.Effective, d func(context.Context, distill.Segment) string) func(context.Context, distill.Segment) string {
	if !cfg.Short.ScanSecrets {
		return d
	}
	return func(ctx context.Context, seg distill.Segment) string {
		body, _ := secrets.RedactText(d(ctx, seg))
		return body
	}
}
