package shortterm

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/shortterm/capture"
)

// flush runs a session's flush from a hook: inline with the extractive
// distiller; with the claude distiller it starts `memhook flush --session`
// detached and returns at once, because a model call never fits a hook. A
// replayed hook (sc.asOf) has no hook's deadline: it flushes inline.
func (m *Memory) flush(ctx context.Context, sc *scope, trigger string, final bool) error {
	if sc.cfg.Distiller.Kind == "claude" && sc.asOf == nil {
		return m.flushDetached(sc, trigger, final)
	}
	o := m.flushOptions(sc.cfg, trigger, final)
	o.AsOf = sc.asOf
	res, err := FlushSession(ctx, sc.sess, o)
	m.logFlush(sc.layout.Root, sc.sess.ID, trigger, res, err)
	return err
}

// flushDetached starts the background flush, or, when one is running,
// asks it to go again once it is done: the request and the running run's
// last look at it happen under the session lock, so no request falls
// between them (see flushOne).
func (m *Memory) flushDetached(sc *scope, trigger string, final bool) error {
	window := time.Duration(sc.cfg.Distiller.TimeoutSeconds)*time.Second + time.Minute
	spawn := false
	err := sc.sess.Update(func(s *capture.State) error {
		if !s.Background.IsZero() && m.Now().Sub(s.Background) < window {
			s.Again, s.AgainFinal = trigger, s.AgainFinal || final
			return nil
		}
		s.Background, spawn = m.Now(), true
		return nil
	})
	if err != nil || !spawn {
		return err
	}
	if err := m.startFlush(sc, trigger, final); err != nil {
		sc.sess.Update(func(s *capture.State) error { s.Background = time.Time{}; return nil })
		return err
	}
	return nil
}

func (m *Memory) startFlush(sc *scope, trigger string, final bool) error {
	if m.Spawn == nil {
		return fmt.Errorf("start background flush: no way to start memhook")
	}
	args := []string{"flush", "--session", sc.sess.ID, "--trigger", trigger}
	if final {
		args = append(args, "--final")
	}
	pid, err := m.Spawn(sc.layout.Root, args)
	if err != nil {
		return fmt.Errorf("start background flush: %w", err)
	}
	m.Log.Write(runlog.Entry{Time: m.Now(), Event: "flush", Session: sc.sess.ID, Level: "info",
		Message: "started background flush pid " + strconv.Itoa(pid) + " (" + trigger + ")"})
	return nil
}

// index indexes the daily file a flush of the project at root wrote, when
// it wrote one.
func (m *Memory) index(ctx context.Context, root, sessionID string, res FlushResult) {
	if m.Index == nil || res.File == "" {
		return
	}
	if err := m.Index(ctx, root, res.File); err != nil {
		m.Log.Write(runlog.Entry{Time: m.Now(), Event: "flush", Session: sessionID, Level: "warn",
			Message: fmt.Sprintf("index %s: %v (the next search or memhook index reads it)", res.File, err)})
	}
}

func (m *Memory) logFlush(root, sessionID, trigger string, res FlushResult, err error) {
	e := runlog.Entry{Time: m.Now(), Event: "flush", Session: sessionID}
	e.Level, e.Message = flushMessage(trigger, res, err)
	m.Log.Write(e)
	m.index(context.Background(), root, sessionID, res)
	if err == nil && m.Flushed != nil {
		m.Flushed(FlushReport{Session: sessionID, FlushResult: res})
	}
}

// flushMessage is a flush's log entry: what it wrote, or why not, and the
// lessons it taught.
func flushMessage(trigger string, res FlushResult, err error) (level, msg string) {
	switch {
	case err != nil:
		return "error", fmt.Sprintf("%s flush: %v", trigger, err)
	case res.File != "":
		msg = fmt.Sprintf("%s flush: %d items to %s", trigger, res.Items, res.File)
	default:
		msg = fmt.Sprintf("%s flush skipped: %s", trigger, res.Skipped)
	}
	level = "info"
	if res.Lessons > 0 {
		msg += fmt.Sprintf("; %d lessons", res.Lessons)
	}
	if res.LessonsErr != nil {
		level, msg = "warn", msg+fmt.Sprintf("; lessons not written: %v", res.LessonsErr)
	}
	return level, msg
}
