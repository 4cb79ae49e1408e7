package shortterm

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/shortterm/capture"
)

// FlushRequest says which sessions `memhook flush` flushes.
type FlushRequest struct {
	Session string // one session by id
	Pending bool   // every pending session of every project
	Root    string // else: the pending sessions of this project root
	// Trigger is written in the section heading; "" is manual, or
	// recovery with Pending.
	Trigger string
	Final   bool // the session is over: a trivial one is parked
}

// FlushReport is what one flush of one session did.
type FlushReport struct {
	Session string
	FlushResult
}

// ErrNoSession: the session named has no state in the sessions dir.
var ErrNoSession = capture.ErrNoSession

// Flush runs `memhook flush`: it flushes the sessions the request names,
// each exactly once however many flushers race, and reports what each
// flush wrote or why it wrote nothing. No report and no error means no
// session had anything pending. A session that fails does not stop the
// others; the errors are joined.
func (m *Memory) Flush(ctx context.Context, req FlushRequest) ([]FlushReport, error) {
	store := m.store()
	var targets []*capture.Session
	trigger := req.Trigger
	switch {
	case req.Session != "":
		s, err := store.Find(req.Session)
		if err != nil {
			return nil, err
		}
		targets = append(targets, s)
		if trigger == "" {
			trigger = TriggerManual
		}
	case req.Pending:
		ids, err := store.Projects()
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			p, err := store.Pending(id)
			if err != nil {
				return nil, err
			}
			targets = append(targets, p...)
		}
		if trigger == "" {
			trigger = TriggerRecovery
		}
	default:
		p, err := store.Pending(project.ID(req.Root))
		if err != nil {
			return nil, err
		}
		targets = p
		if trigger == "" {
			trigger = TriggerManual
		}
	}
	var reports []FlushReport
	var errs []error
	for _, s := range targets {
		r, err := m.flushOne(ctx, s, trigger, req.Final)
		reports = append(reports, r...)
		if err != nil {
			errs = append(errs, err)
		}
	}
	return reports, errors.Join(errs...)
}

// flushOne flushes a session, then takes up any flush a hook asked for
// while this one ran (the claude distiller's hooks do not start a second
// background run); the last look and the release of the session's
// background slot are one locked step.
func (m *Memory) flushOne(ctx context.Context, s *capture.Session, trigger string, final bool) ([]FlushReport, error) {
	var reports []FlushReport
	for range 8 {
		res, err := m.flushStep(ctx, s, trigger, final)
		if err != nil {
			return reports, err
		}
		reports = append(reports, FlushReport{Session: s.ID, FlushResult: res})
		again := false
		err = s.Update(func(st *capture.State) error {
			if st.Again != "" {
				trigger, final, again = st.Again, st.AgainFinal, true
				st.Again, st.AgainFinal = "", false
				return nil
			}
			st.Background = time.Time{}
			return nil
		})
		if err != nil || !again {
			return reports, err
		}
	}
	return reports, nil
}

func (m *Memory) flushStep(ctx context.Context, s *capture.Session, trigger string, final bool) (FlushResult, error) {
	start := m.Now()
	st, err := s.Load()
	if err != nil {
		return FlushResult{}, err
	}
	cfg := m.Config(st.Project)
	// A pending session counts as over (so a trivial one is parked) only
	// once it ended or fell silent; a live one is flushed but never judged.
	over := final || st.Over(m.Now())
	res, err := FlushSession(ctx, s, m.flushOptions(cfg, trigger, over))
	e := runlog.Entry{Time: start, Event: "flush", Session: s.ID, Level: "info",
		MS: float64(m.Now().Sub(start).Microseconds()) / 1000}
	e.Level, e.Message = flushMessage(trigger, res, err)
	if err != nil {
		m.Log.Write(e)
		return res, fmt.Errorf("flush session %s: %w", s.ID, err)
	}
	m.Log.Write(e)
	m.index(ctx, st.Project, s.ID, res)
	return res, nil
}
