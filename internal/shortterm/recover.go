package shortterm

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/shortterm/capture"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// unrecorded leaves the recovery marker of a session whose capture failed
// (see [capture.Unrecorded]).
func (m *Memory) unrecorded(sc *scope, h Hook, captureErr error) error {
	if h.AsOf != nil {
		return captureErr // a replay: nothing to recover, the import stops
	}
	return capture.Unrecorded(sc.layout.Root, h.SessionID, h.Transcript, captureErr)
}

// recoverUnrecorded flushes the sessions whose state could not be written,
// from their transcripts, once the state dir takes writes again.
func (m *Memory) recoverUnrecorded(ctx context.Context, sc *scope, self string) error {
	dir := capture.UnrecordedDir(sc.layout.Root)
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
		err = other.Update(func(st *capture.State) error {
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
		safefs.Remove(filepath.Join(dir, id))
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
