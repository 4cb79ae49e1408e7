package longterm

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
)

// SyncRequest is `long sync` over one or more projects.
type SyncRequest struct {
	Roots  []string // project roots
	Remote string   // long.remote, with [ProjectPlaceholder]
	// Open opens a project's history as its own long.git says.
	Open func(root string) (*History, error)
	Now  time.Time
}

// SyncRow is one project's sync. The fields are in the order of the JSON
// keys `long sync --json` has always printed.
type SyncRow struct {
	Error   string              `json:"error,omitempty"`
	Project string              `json:"project"`
	Result  *gitrepo.SyncResult `json:"result,omitempty"`
	Skipped string              `json:"skipped,omitempty"`
}

// Trouble says whether the row needs a person: the sync failed, or left
// the two sides apart.
func (r SyncRow) Trouble() bool { return r.Error != "" || (r.Result != nil && r.Result.Troubled()) }

// SyncCommand is the command that syncs the project at root on demand.
func SyncCommand(root string) string { return "memhook long sync --project " + root }

// SyncAll syncs each project's memory with its remote, one after
// another: one project that cannot sync does not keep the others from it.
func SyncAll(ctx context.Context, req SyncRequest) []SyncRow {
	rows := make([]SyncRow, 0, len(req.Roots))
	for _, root := range req.Roots {
		row := SyncRow{Project: root}
		res, err := syncOne(ctx, req, root)
		switch {
		case err != nil:
			row.Error = err.Error()
		case res == nil:
			row.Skipped = "long-term memory has no history of its own"
		default:
			row.Result = res
		}
		rows = append(rows, row)
	}
	return rows
}

// syncOne syncs one project's memory; nil, nil when it has no history of
// its own to sync.
func syncOne(ctx context.Context, req SyncRequest, root string) (*gitrepo.SyncResult, error) {
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("project folder %s is not reachable", root)
	}
	url, err := RemoteFor(req.Remote, root)
	if err != nil {
		return nil, err
	}
	h, err := req.Open(root)
	if err != nil {
		return nil, err
	}
	if !h.Versioned() {
		return nil, nil
	}
	return h.Sync(ctx, url, SyncCommand(root), req.Now)
}

// Troubled counts the rows that need a person.
func Troubled(rows []SyncRow) int {
	n := 0
	for _, row := range rows {
		if row.Trouble() {
			n++
		}
	}
	return n
}

// WriteSyncRows prints each row: a sync that went well on out (unless
// quiet, as a scheduled run is), a failed or troubled one on errw with
// what to do about it.
func WriteSyncRows(out, errw io.Writer, rows []SyncRow, quiet bool) {
	for _, row := range rows {
		if row.Error != "" {
			fmt.Fprintf(errw, "memhook: error: long sync %s: %s\n", row.Project, row.Error)
		}
		if row.Result == nil {
			continue
		}
		if r := row.Result.RefusedText("long sync " + row.Project); r != "" {
			fmt.Fprintln(errw, "memhook: warning: "+r)
			fmt.Fprintln(errw, "memhook: hint: "+gitrepo.RefusedHint)
		}
		switch {
		case row.Result.Troubled():
			fmt.Fprintln(errw, "memhook: "+row.Result.Summary("long sync "+row.Project))
			fmt.Fprintf(errw, "memhook: hint: %s\n", row.Result.Hint(filepath.Join(row.Project, ".claude", "memory_long"), SyncCommand(row.Project)))
		case !quiet:
			fmt.Fprintln(out, row.Result.Summary("long sync "+row.Project))
		}
	}
}
