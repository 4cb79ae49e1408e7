package shortterm

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/safefs"
)

// unrecordedDir holds a marker per session whose state could not be
// written (a full or broken state dir): the marker goes into the project,
// which is often on another disk, so the next SessionStart can still
// recover the session from its transcript.
func unrecordedDir(l project.Layout) string {
	return filepath.Join(l.Root, ".claude", ".cerebro", "unrecorded")
}

// unrecorded leaves the marker for a session whose capture failed and
// returns the capture's error for the log.
func (m *Memory) unrecorded(sc *scope, h Hook, captureErr error) error {
	if h.Transcript == "" || h.SessionID == "" || strings.ContainsAny(h.SessionID, `/\`) {
		return captureErr
	}
	dir := unrecordedDir(sc.layout)
	err := safefs.MkdirAll(dir)
	if err == nil {
		err = atomicfile.Write(filepath.Join(dir, h.SessionID), []byte(h.Transcript+"\n"), 0o600)
	}
	if err != nil {
		return errors.Join(captureErr, fmt.Errorf("leave recovery marker: %w", err))
	}
	return captureErr
}

// recoverUnrecorded flushes the sessions whose state could not be written,
// from their transcripts, once the state dir takes writes again.
func (m *Memory) recoverUnrecorded(ctx context.Context, sc *scope, self string) error {
	dir := unrecordedDir(sc.layout)
	ents, err := safefs.ReadDir(dir)
	if err != nil {
		return nil // none (or unreadable: nothing to do from here)
	}
	var errs []error
	for i, e := range ents {
		if i >= recoverMax || ctx.Err() != nil {
			break
		}
		id := e.Name()
		if id == self || strings.HasPrefix(id, ".") {
			continue
		}
		data, err := safefs.ReadFile(filepath.Join(dir, id), 4096)
		if err != nil || len(data) > 4096 {
			continue
		}
		tr := strings.TrimSpace(string(data))
		other := m.store().Session(sc.id, id)
		// The state starts at the transcript's beginning: what the hooks
		// could not record is all in the transcript.
		err = other.Update(func(st *State) error {
			st.Project, st.Transcript, st.Ended = sc.layout.Root, tr, true
			return nil
		})
		if err != nil {
			errs = append(errs, fmt.Errorf("recover unrecorded session %s: %w", id, err))
			continue
		}
		osc := *sc
		osc.sess = other
		if err := m.flush(ctx, &osc, TriggerRecovery, true); err != nil {
			errs = append(errs, fmt.Errorf("recover unrecorded session %s: %w", id, err))
			continue
		}
		os.Remove(filepath.Join(dir, id))
	}
	return errors.Join(errs...)
}

// recoverProject flushes, once, the segments other sessions of this project
// left behind (a cancelled SessionEnd, a killed process).
func (m *Memory) recoverProject(ctx context.Context, sc *scope, self string) error {
	pending, err := m.store().Pending(sc.id)
	if err != nil {
		return err
	}
	var errs []error
	n := 0
	for _, other := range pending {
		if other.ID == self || n >= recoverMax || ctx.Err() != nil {
			continue
		}
		st, err := other.Load()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !st.Over(m.Now()) {
			continue
		}
		n++
		osc := *sc
		osc.sess = other
		if err := m.flush(ctx, &osc, TriggerRecovery, true); err != nil {
			errs = append(errs, fmt.Errorf("recover session %s: %w", other.ID, err))
		}
	}
	return errors.Join(errs...)
}
