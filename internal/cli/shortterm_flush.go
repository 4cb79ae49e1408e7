package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/distill"
	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/secrets"
	"github.com/cerebro-mem/cerebro/internal/shortterm"
)

// CrashEnv names a flush point ("after-read", "after-distill",
// "after-intent", "after-append", "after-commit") at which memhook exits
// abruptly, for the kill tests. Never set it outside tests.
const CrashEnv = "CEREBRO_TEST_CRASH"

// flush runs a session's flush from a hook: inline with the extractive
// distiller; with the claude distiller it starts `memhook flush --session`
// detached and returns at once, because a model call never fits a hook.
func (r *hookRun) flush(ctx context.Context, sc *hookScope, st *shortterm.State, trigger string, final bool) error {
	if sc.cfg.Distiller.Kind == "claude" {
		return r.flushDetached(sc, st, trigger, final)
	}
	res, err := sc.sess.Flush(ctx, r.flushOptions(sc.cfg, trigger, final))
	r.logFlush(sc.sess.ID, trigger, res, err)
	return err
}

func (f *Factory) flushOptions(cfg *config.Effective, trigger string, final bool) shortterm.FlushOptions {
	o := shortterm.FlushOptions{
		Trigger: trigger, Now: f.Now(), MinReplies: cfg.Short.MinReplies, Final: final,
		Force:   trigger == shortterm.TriggerPreCompact,
		Distill: func(ctx context.Context, seg distill.Segment) string { return distill.Extractive(seg) },
	}
	o.Distill = redacting(cfg, o.Distill)
	if point := f.Getenv(CrashEnv); point != "" {
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
func (f *Factory) claudeDistill(cfg *config.Effective, log *runlog.Log) func(ctx context.Context, seg distill.Segment) string {
	return func(ctx context.Context, seg distill.Segment) string {
		note := func(msg string) {
			log.Write(runlog.Entry{Time: f.Now(), Event: "distill", Session: seg.SessionID, Level: "warn", Message: msg})
		}
		ok, err := shortterm.TakeBudget(BudgetDir(f.Paths), f.Now(), cfg.Distiller.DailyBudget)
		if err != nil || !ok {
			note(fmt.Sprintf("claude distiller skipped (daily budget of %d calls used, or %v): extractive used", cfg.Distiller.DailyBudget, err))
			return distill.Extractive(seg)
		}
		// The nested claude inherits this environment minus CLAUDECODE,
		// plus the guard that makes its own cerebro hooks do nothing.
		c := distill.Claude{
			Command: cfg.Distiller.Command, Model: cfg.Distiller.Model,
			Timeout: time.Duration(cfg.Distiller.TimeoutSeconds) * time.Second,
			Env:     f.Environ(),
		}
		body, usedClaude, err := distill.Fallback(ctx, c, seg)
		if !usedClaude {
			note(fmt.Sprintf("claude distiller failed, extractive used: %v", err))
		}
		return body
	}
}

// BudgetDir holds the per-day count of claude distiller calls.
func BudgetDir(p config.Paths) string { return filepath.Join(p.State, "distiller") }

// flushDetached starts the background flush, or, when one is running,
// asks it to go again once it is done: the request and the running run's
// last look at it happen under the session lock, so no request falls
// between them (see flushOne).
func (r *hookRun) flushDetached(sc *hookScope, st *shortterm.State, trigger string, final bool) error {
	window := time.Duration(sc.cfg.Distiller.TimeoutSeconds)*time.Second + time.Minute
	spawn := false
	err := sc.sess.Update(func(s *shortterm.State) error {
		if !s.Background.IsZero() && r.Now().Sub(s.Background) < window {
			s.Again, s.AgainFinal = trigger, s.AgainFinal || final
			return nil
		}
		s.Background, spawn = r.Now(), true
		return nil
	})
	if err != nil || !spawn {
		return err
	}
	if err := r.startFlush(sc, trigger, final); err != nil {
		sc.sess.Update(func(s *shortterm.State) error { s.Background = time.Time{}; return nil })
		return err
	}
	return nil
}

func (r *hookRun) startFlush(sc *hookScope, trigger string, final bool) error {
	if r.Executable == "" {
		return fmt.Errorf("start background flush: the memhook executable is unknown")
	}
	args := []string{"flush", "--session", sc.sess.ID, "--trigger", trigger}
	if final {
		args = append(args, "--final")
	}
	cmd := exec.Command(r.Executable, args...)
	cmd.Dir = sc.layout.Root
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start background flush: %w", err)
	}
	pid := cmd.Process.Pid
	cmd.Process.Release()
	r.Log.Write(runlog.Entry{Time: r.Now(), Event: "flush", Session: sc.sess.ID, Level: "info",
		Message: "started background flush pid " + strconv.Itoa(pid) + " (" + trigger + ")"})
	return nil
}

func (r *hookRun) logFlush(sessionID, trigger string, res shortterm.FlushResult, err error) {
	e := runlog.Entry{Time: r.Now(), Event: "flush", Session: sessionID, Level: "info"}
	switch {
	case err != nil:
		e.Level, e.Message = "error", fmt.Sprintf("%s flush: %v", trigger, err)
	case res.File != "":
		e.Message = fmt.Sprintf("%s flush: %d items to %s", trigger, res.Items, res.File)
	default:
		e.Message = fmt.Sprintf("%s flush skipped: %s", trigger, res.Skipped)
	}
	r.Log.Write(e)
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
