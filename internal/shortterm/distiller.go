package shortterm

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/shortterm/distill"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/text/secrets"
)

// The distiller of a flush: extractive inside the hook, or the claude
// distiller in the background run, bounded by a daily budget of calls and
// falling back to the extractive distillate; either way redacted when
// short.scan_secrets is on. Everything about that choice is in this file.

// BudgetDir holds the per-day count of claude distiller calls, under the
// state dir.
func BudgetDir(state string) string { return filepath.Join(state, "distiller") }

// flushOptions are a flush's options with the extractive distiller.
func (m *Memory) flushOptions(cfg *config.Effective, trigger string, final bool) FlushOptions {
	o := FlushOptions{
		Trigger: trigger, Now: m.Now(), MinReplies: cfg.Short.MinReplies, Final: final,
		Force: trigger == TriggerPreCompact, Desk: m.Desk,
		NoteBytes: cfg.Limits.NoteBytes, LineBytes: cfg.Limits.TranscriptLineBytes,
		Distill: func(ctx context.Context, seg distill.Segment) string { return distill.Extractive(seg) },
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
		ok, err := TakeBudget(m.Budget, m.Now(), cfg.Distiller.DailyBudget)
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

// TakeBudget counts one model call against the day's limit in dir and
// reports whether it was allowed. The count lives in one small file per
// day (budget-YYYY-MM-DD), changed under its lock.
func TakeBudget(dir string, day time.Time, limit int) (bool, error) {
	if limit <= 0 {
		return false, nil
	}
	path := filepath.Join(dir, "budget-"+day.Format(time.DateOnly))
	ok := false
	err := atomicfile.WithLock(path, func() error {
		n, err := readCount(path)
		if err != nil {
			return err
		}
		if n >= limit {
			return nil
		}
		ok = true
		return atomicfile.Write(path, []byte(strconv.Itoa(n+1)+"\n"), 0o600)
	})
	if err != nil {
		return false, fmt.Errorf("take a model call from the day's budget in %s: %w", dir, err)
	}
	return ok, nil
}

// BudgetUsed is the number of calls counted for day.
func BudgetUsed(dir string, day time.Time) (int, error) {
	return readCount(filepath.Join(dir, "budget-"+day.Format(time.DateOnly)))
}

func readCount(path string) (int, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", path, err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		return 0, nil // a torn counter restarts at zero rather than block the distiller
	}
	return n, nil
}
