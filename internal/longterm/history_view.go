package longterm

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
)

// HistoryQuery is `long log|diff|revert` on the memory's history.
type HistoryQuery struct {
	Action string // log, diff or revert
	Path   string // a path in the memory, "" for all of it
	Rev    string // diff: the commit to show ("": the latest touching Path)
	Limit  int    // log: at most this many commits (0: all)
	Now    time.Time
	// Warn takes what went wrong after the revert was made: index.md
	// could not be rebuilt.
	Warn func(string)
}

// HistoryView is what a [HistoryQuery] found or did.
type HistoryView struct {
	action string
	Log    []gitrepo.Commit
	Path   string
	Diff   string
	Commit string
}

// Show runs the query on the history.
func (h *History) Show(q HistoryQuery) (*HistoryView, error) {
	if !h.Versioned() {
		return nil, hint.Wrap(fmt.Errorf("long %s: %w: %s", q.Action, ErrNoHistory, h.Note), "set long.git = \"own\" to keep a history of its own")
	}
	v := &HistoryView{action: q.Action, Path: q.Path}
	var err error
	switch q.Action {
	case "log":
		v.Log, err = h.Log(q.Path, q.Limit)
	case "diff":
		v.Diff, err = h.Diff(q.Path, q.Rev)
	default:
		v.Commit, err = h.Revert(q.Path, q.Now)
		if errors.Is(err, ErrNoPrevious) {
			return nil, hint.Wrap(err, "`memhook long log "+q.Path+"` lists its versions")
		}
		if err == nil {
			if _, ierr := h.store.RebuildIndex(); ierr != nil {
				q.Warn(ierr.Error())
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("long %s: %w", q.Action, err)
	}
	return v, nil
}

// JSON is the value `--json` prints: the commits, the diff or the revert.
func (v *HistoryView) JSON() any {
	switch v.action {
	case "log":
		return v.Log
	case "diff":
		return map[string]string{"path": v.Path, "diff": v.Diff}
	}
	return map[string]string{"path": v.Path, "commit": v.Commit}
}

// WriteText prints the view as `long log|diff|revert` do.
func (v *HistoryView) WriteText(w io.Writer) {
	switch v.action {
	case "log":
		for _, c := range v.Log {
			fmt.Fprintf(w, "%.12s  %s  %s\n", c.Hash, c.When.Format("2006-01-02 15:04"), c.Message)
		}
	case "diff":
		fmt.Fprint(w, v.Diff)
	default:
		fmt.Fprintf(w, "%s reverted to its previous version: commit %.12s\n", v.Path, v.Commit)
	}
}
