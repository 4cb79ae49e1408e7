package shortterm

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/registry"
	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/shortterm/capture"
	"github.com/cerebro-mem/cerebro/internal/shortterm/handover"
	"github.com/cerebro-mem/cerebro/internal/shortterm/inject"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// Memory is the short-term lifecycle of every project as the hooks and
// `memhook flush` drive it: one method per hook event, each taking plain
// values and returning plain results. Its fields are what it needs from
// the process; none of them is read from the environment here.
type Memory struct {
	// Sessions is the sessions dir in the state dir.
	Sessions string
	// Budget is the folder of the claude distiller's daily counts
	// ([BudgetDir]).
	Budget string
	// Registry is the desk's project registry; SessionStart touches a
	// registered project with long-term memory there ("" leaves it alone).
	Registry string
	// Desk is the cerebro desk's root ($CEREBRO_HOME): a session there is
	// the operator's, whose /org_* commands are its work ("" for none).
	Desk string
	// Config gives a project root's effective settings. `memhook flush`
	// reaches sessions of several projects, each with its own.
	Config func(root string) *config.Effective
	Now    func() time.Time
	Log    *runlog.Log
	// Spawn starts `memhook <args>` in dir, detached so that it outlives
	// the hook, and returns its pid: the claude distiller's flush runs
	// there, because a model call never fits a hook.
	Spawn func(dir string, args []string) (int, error)
	// Environ is the environment a nested claude distiller inherits.
	Environ []string
	// Crash names a flush point at which the process exits abruptly (the
	// kill tests set it); "" in real use.
	Crash string
	// Wall is the real clock where Now replays the past (`memhook
	// import`): the claude distiller's daily budget is counted by it. Nil:
	// Now.
	Wall func() time.Time
	// Flushed, when set, hears of every flush this process ran inline
	// and what it wrote.
	Flushed func(FlushReport)
	// Index, when set, brings the search index of the project at root up
	// to date with a daily file a flush just wrote (its absolute path), so
	// that the section is searchable before anyone asks; its failure is
	// logged, never the flush's.
	Index func(ctx context.Context, root, file string) error
	// IndexProject, when set, brings the search index of the project at
	// root up to date, stopping between files when ctx ends and keeping
	// what it read: SessionStart's background run ([Memory.IndexRun]).
	IndexProject func(ctx context.Context, root string) error
}

// Hook is one hook's input.
type Hook struct {
	Root       string // the session's project root
	SessionID  string
	Transcript string
	// Text is the prompt at UserPromptSubmit and the last assistant
	// message at Stop.
	Text string
	// Source is SessionStart's: startup, resume, clear or compact.
	Source string
	// Captured: memhook-hot captured Text already and handed the rest of
	// the event over (see [hook.Handed]); it is not captured twice.
	Captured bool
	// FlushDecided: memhook-hot, having captured a Stop, decided whether
	// a flush is due (FlushDue); Stop does not ask again.
	FlushDecided, FlushDue bool
	// AsOf, when set, replays the event of a session that is over at the
	// moment it names (`memhook import`, with Now returning that moment):
	// the hook reads the session's files as they were then and flushes in
	// this process, whatever the distiller; a capture that fails leaves no
	// recovery marker, its error stops the replay.
	AsOf *transcript.AsOf
}

// RecoverIdle: see [capture.RecoverIdle].
const RecoverIdle = capture.RecoverIdle

// recoverMax bounds how many sessions one SessionStart recovers, so its
// cost does not grow with a backlog; `memhook flush --pending` takes all.
const recoverMax = 3

// scope is what every event resolves first.
type scope struct {
	layout project.Layout
	id     string
	cfg    *config.Effective
	sess   *capture.Session
	meta   capture.Meta
	asOf   *transcript.AsOf
}

func (m *Memory) store() capture.Store { return capture.Store{Root: m.Sessions} }

func (m *Memory) scope(h Hook) (*scope, error) {
	cfg := m.Config(h.Root)
	id := project.ID(h.Root)
	return &scope{
		layout: project.Layout{Root: h.Root}, id: id, cfg: cfg,
		sess: m.store().Session(id, h.SessionID),
		meta: capture.Meta{Project: h.Root, Transcript: h.Transcript, LineBytes: cfg.Limits.TranscriptLineBytes, AsOf: h.AsOf},
		asOf: h.AsOf,
	}, nil
}

// UserPromptSubmit captures the prompt (the hot path: one journal line and
// the counters).
func (m *Memory) UserPromptSubmit(h Hook) error {
	sc, err := m.scope(h)
	if err != nil {
		return err
	}
	if h.Captured {
		return nil
	}
	if _, err := sc.sess.Capture(m.Now(), "user", h.Text, sc.meta); err != nil {
		return m.unrecorded(sc, h, err)
	}
	return nil
}

// Stop captures the turn's final message, counts what the turn added, and
// flushes the segment once it reaches short.flush_chars or
// short.flush_replies.
func (m *Memory) Stop(ctx context.Context, h Hook) error {
	sc, err := m.scope(h)
	if err != nil {
		return err
	}
	if h.Captured && h.FlushDecided {
		if !h.FlushDue {
			return nil
		}
		return m.flush(ctx, sc, TriggerAuto, false)
	}
	var st *capture.State
	if h.Captured {
		st, err = sc.sess.Load()
	} else {
		st, err = sc.sess.Capture(m.Now(), "assistant", h.Text, sc.meta)
	}
	if err != nil {
		return m.unrecorded(sc, h, err)
	}
	if !handover.FlushDue(sc.cfg, st) {
		return nil
	}
	return m.flush(ctx, sc, TriggerAuto, false)
}

// PreCompact flushes whatever is unflushed, whatever its size: compaction
// must lose nothing.
func (m *Memory) PreCompact(ctx context.Context, h Hook) error {
	sc, err := m.scope(h)
	if err != nil {
		return err
	}
	if _, err := sc.sess.Touch(m.Now(), sc.meta, false); err != nil {
		return err
	}
	return m.flush(ctx, sc, TriggerPreCompact, false)
}

// SessionEnd flushes the rest of the session; a trivial session is parked.
func (m *Memory) SessionEnd(ctx context.Context, h Hook) error {
	sc, err := m.scope(h)
	if err != nil {
		return err
	}
	if _, err := sc.sess.Touch(m.Now(), sc.meta, true); err != nil {
		return err
	}
	return m.flush(ctx, sc, TriggerSessionEnd, true)
}

// Injected is what SessionStart hands the session: the recalled memory
// for the model ("" for none) and the one line the person is shown about
// it ("" when inject.notice is off or nothing was recalled).
type Injected struct{ Text, Notice string }

// SessionStart recovers other sessions' unflushed segments, sweeps stale
// temporary files, registers the project when long-term memory is on,
// starts the background run that brings its search index up to date, and
// returns the recalled memory to inject. Each step fails on its own: a
// broken registry never costs the inject.
func (m *Memory) SessionStart(ctx context.Context, h Hook) (Injected, error) {
	sc, err := m.scope(h)
	if err != nil {
		return Injected{}, err
	}
	var errs []error
	if _, err := sc.sess.Touch(m.Now(), sc.meta, false); err != nil {
		errs = append(errs, err)
	}
	if err := m.recoverProject(ctx, sc, h.SessionID); err != nil {
		errs = append(errs, err)
	}
	if err := m.recoverUnrecorded(ctx, sc, h.SessionID); err != nil {
		errs = append(errs, err)
	}
	if _, err := m.store().CleanStale(sc.id, m.Now(), sc.layout.ShortDir(), sc.layout.LongDir()); err != nil {
		errs = append(errs, err)
	}
	if m.Registry != "" && sc.layout.LongActive() {
		if err := m.seen(sc); err != nil {
			errs = append(errs, fmt.Errorf("register project: %w", err))
		}
	}
	in, err := m.inject(ctx, sc, h)
	if err != nil {
		errs = append(errs, err)
	}
	if err := m.indexBehind(sc); err != nil {
		errs = append(errs, err)
	}
	return in, errors.Join(errs...)
}

// seen updates the desk's last sight of the project. It admits a project
// that is not registered only when the person's own settings trust it
// (trust_project_config): a clone carrying .claude/memory_long/ must not
// join the searches across projects, recall and the dashboard by its
// files alone; `memhook long on` or `memhook register` admits it.
func (m *Memory) seen(sc *scope) error {
	p := registry.Project{ID: sc.id, Name: filepath.Base(sc.layout.Root), Path: sc.layout.Root}
	if sc.cfg != nil && sc.cfg.Trusted {
		return registry.Touch(m.Registry, p, m.Now())
	}
	_, err := registry.Seen(m.Registry, p, m.Now())
	return err
}

// inject builds the recalled memory. A resumed session's context holds
// what it said and what it was handed, so on resume and clear its own
// sections and what it was given before are left out. A compaction
// replaced the context by a summary of the session's own turns: its own
// sections stay out, but the earlier days, CORE and plan-fact are handed
// again. What it is handed now is remembered, at every start, for its
// next one.
func (m *Memory) inject(ctx context.Context, sc *scope, h Hook) (Injected, error) {
	var counted inject.Recalled
	o := inject.Options{Layout: sc.layout, Now: m.Now(), MaxChars: sc.cfg.Inject.MaxChars, Given: &inject.Given{}, NoteBytes: sc.cfg.Limits.NoteBytes,
		Recalled: &counted}
	if h.Source != "" && h.Source != "startup" {
		o.Session = h.SessionID
		if h.Source != "compact" {
			o.Given.Had = given(sc.sess)
		}
	}
	text, err := inject.Build(o)
	if err != nil {
		return Injected{}, fmt.Errorf("build inject: %w", err)
	}
	in := Injected{Text: text}
	if sc.cfg.Inject.Notice {
		in.Notice = recallNotice(text, counted)
	}
	if ctx.Err() != nil {
		// Past the hook's deadline the text is dropped, not handed: it
		// must not count as given.
		return in, nil
	}
	return in, addGiven(sc.sess, o.Given.Gave)
}
