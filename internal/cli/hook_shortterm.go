package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/hook"
	"github.com/cerebro-mem/cerebro/internal/inject"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/registry"
	"github.com/cerebro-mem/cerebro/internal/safefs"
	"github.com/cerebro-mem/cerebro/internal/shortterm"
)

// recoverIdle is how long another session of the project must have been
// silent before SessionStart flushes its segment as a recovery: a session
// still open in another terminal is left to flush itself.
const recoverIdle = 10 * time.Minute

// recoverMax bounds how many sessions one SessionStart recovers, so its
// cost does not grow with a backlog; `memhook flush --pending` takes all.
const recoverMax = 3

func shortTermHandlers() map[string]hookHandler {
	return map[string]hookHandler{
		"session-start":      hookSessionStart,
		"user-prompt-submit": hookUserPromptSubmit,
		"stop":               hookStop,
		"pre-compact":        hookPreCompact,
		"session-end":        hookSessionEnd,
	}
}

// hookScope is what every short-term handler resolves first.
type hookScope struct {
	layout project.Layout
	id     string
	cfg    *config.Effective
	sess   *shortterm.Session
	meta   shortterm.Meta
}

func (r *hookRun) scope() (*hookScope, error) {
	if r.rootErr != nil {
		return nil, r.rootErr
	}
	root := r.root
	cfg, err := r.Config(root)
	if err != nil {
		return nil, fmt.Errorf("load config: %w", err)
	}
	id := project.ID(root)
	store := shortterm.Store{Root: r.Paths.Sessions()}
	return &hookScope{
		layout: project.Layout{Root: root}, id: id, cfg: cfg,
		sess: store.Session(id, r.In.SessionID),
		meta: shortterm.Meta{Project: root, Transcript: r.In.TranscriptPath},
	}, nil
}

func hookUserPromptSubmit(ctx context.Context, r *hookRun) ([]byte, error) {
	sc, err := r.scope()
	if err != nil {
		return nil, err
	}
	if _, err := sc.sess.Capture(r.Now(), "user", r.In.Prompt, sc.meta); err != nil {
		return nil, r.unrecorded(sc, err)
	}
	return r.autoRecall(ctx, sc)
}

func hookStop(ctx context.Context, r *hookRun) ([]byte, error) {
	r.endSkillTurn() // evolve: closes a skill-driven turn's run record (docs/skills.md)
	sc, err := r.scope()
	if err != nil {
		return nil, err
	}
	st, err := sc.sess.Capture(r.Now(), "assistant", r.In.LastAssistantMessage, sc.meta)
	if err != nil {
		return nil, r.unrecorded(sc, err)
	}
	th := shortterm.Thresholds{Chars: sc.cfg.Short.FlushChars, Replies: sc.cfg.Short.FlushReplies}
	if !th.Due(st) {
		return nil, nil
	}
	return nil, r.flush(ctx, sc, st, shortterm.TriggerAuto, false)
}

func hookPreCompact(ctx context.Context, r *hookRun) ([]byte, error) {
	sc, err := r.scope()
	if err != nil {
		return nil, err
	}
	st, err := sc.sess.Touch(r.Now(), sc.meta, false)
	if err != nil {
		return nil, err
	}
	return nil, r.flush(ctx, sc, st, shortterm.TriggerPreCompact, false)
}

func hookSessionEnd(ctx context.Context, r *hookRun) ([]byte, error) {
	sc, err := r.scope()
	if err != nil {
		return nil, err
	}
	st, err := sc.sess.Touch(r.Now(), sc.meta, true)
	if err != nil {
		return nil, err
	}
	return nil, r.flush(ctx, sc, st, shortterm.TriggerSessionEnd, true)
}

// hookSessionStart recovers other sessions' unflushed segments, registers
// the project when long-term memory is on, and injects recalled memory.
// Each step fails on its own: a broken registry never costs the inject.
func hookSessionStart(ctx context.Context, r *hookRun) ([]byte, error) {
	sc, err := r.scope()
	if err != nil {
		return nil, err
	}
	var errs []error
	if _, err := sc.sess.Touch(r.Now(), sc.meta, false); err != nil {
		errs = append(errs, err)
	}
	if err := r.recoverProject(ctx, sc); err != nil {
		errs = append(errs, err)
	}
	if err := r.recoverUnrecorded(ctx, sc); err != nil {
		errs = append(errs, err)
	}
	if _, err := (shortterm.Store{Root: r.Paths.Sessions()}).CleanStale(sc.id, r.Now(), sc.layout.ShortDir(), sc.layout.LongDir()); err != nil {
		errs = append(errs, err)
	}
	if sc.layout.LongActive() {
		p := registry.Project{ID: sc.id, Name: filepath.Base(sc.layout.Root), Path: sc.layout.Root}
		if err := registry.Touch(r.Paths.Registry(), p, r.Now()); err != nil {
			errs = append(errs, fmt.Errorf("register project: %w", err))
		}
	}
	o := inject.Options{Layout: sc.layout, Now: r.Now(), MaxChars: sc.cfg.Inject.MaxChars}
	if r.In.Source != "" && r.In.Source != "startup" {
		o.Session = r.In.SessionID
	}
	text, err := inject.Build(o)
	if err != nil {
		errs = append(errs, fmt.Errorf("build inject: %w", err))
	}
	return hook.SessionStartContext(text), errors.Join(errs...)
}

// unrecordedDir holds a marker per session whose state could not be
// written (a full or broken state dir): the marker goes into the project,
// which is often on another disk, so the next SessionStart can still
// recover the session from its transcript.
func unrecordedDir(l project.Layout) string {
	return filepath.Join(l.Root, ".claude", ".cerebro", "unrecorded")
}

// unrecorded leaves the marker for a session whose capture failed and
// returns the capture's error for the log.
func (r *hookRun) unrecorded(sc *hookScope, captureErr error) error {
	if r.In.TranscriptPath == "" || r.In.SessionID == "" || strings.ContainsAny(r.In.SessionID, `/\`) {
		return captureErr
	}
	dir := unrecordedDir(sc.layout)
	err := safefs.MkdirAll(dir)
	if err == nil {
		err = atomicfile.Write(filepath.Join(dir, r.In.SessionID), []byte(r.In.TranscriptPath+"\n"), 0o600)
	}
	if err != nil {
		return errors.Join(captureErr, fmt.Errorf("leave recovery marker: %w", err))
	}
	return captureErr
}

// recoverUnrecorded flushes the sessions whose state could not be written,
// from their transcripts, once the state dir takes writes again.
func (r *hookRun) recoverUnrecorded(ctx context.Context, sc *hookScope) error {
	dir := unrecordedDir(sc.layout)
	ents, err := safefs.ReadDir(dir)
	if err != nil {
		return nil // none (or unreadable: nothing to do from here)
	}
	store := shortterm.Store{Root: r.Paths.Sessions()}
	var errs []error
	for i, e := range ents {
		if i >= recoverMax || ctx.Err() != nil {
			break
		}
		id := e.Name()
		if id == r.In.SessionID || strings.HasPrefix(id, ".") {
			continue
		}
		data, err := safefs.ReadFile(filepath.Join(dir, id), 4096)
		if err != nil || len(data) > 4096 {
			continue
		}
		tr := strings.TrimSpace(string(data))
		other := store.Session(sc.id, id)
		// The state starts at the transcript's beginning: what the hooks
		// could not record is all in the transcript.
		err = other.Update(func(st *shortterm.State) error {
			st.Project, st.Transcript, st.Ended = sc.layout.Root, tr, true
			return nil
		})
		if err != nil {
			errs = append(errs, fmt.Errorf("recover unrecorded session %s: %w", id, err))
			continue
		}
		st, err := other.Load()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		osc := *sc
		osc.sess = other
		if err := r.flush(ctx, &osc, st, shortterm.TriggerRecovery, true); err != nil {
			errs = append(errs, fmt.Errorf("recover unrecorded session %s: %w", id, err))
			continue
		}
		os.Remove(filepath.Join(dir, id))
	}
	return errors.Join(errs...)
}

// recoverProject flushes, once, the segments other sessions of this project
// left behind (a cancelled SessionEnd, a killed process).
func (r *hookRun) recoverProject(ctx context.Context, sc *hookScope) error {
	store := shortterm.Store{Root: r.Paths.Sessions()}
	pending, err := store.Pending(sc.id)
	if err != nil {
		return err
	}
	var errs []error
	n := 0
	for _, other := range pending {
		if other.ID == r.In.SessionID || n >= recoverMax || ctx.Err() != nil {
			continue
		}
		st, err := other.Load()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !st.Ended && r.Now().Sub(st.LastSeen) < recoverIdle {
			continue
		}
		n++
		osc := *sc
		osc.sess = other
		if err := r.flush(ctx, &osc, st, shortterm.TriggerRecovery, true); err != nil {
			errs = append(errs, fmt.Errorf("recover session %s: %w", other.ID, err))
		}
	}
	return errors.Join(errs...)
}
