package longterm

import (
	"context"
	"fmt"
	"time"

	"github.com/cerebro-mem/cerebro/internal/forget"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
)

// RemoteStateFile keeps the last sync of long-term memory with its remote
// (hidden: the history ignores .cerebro/).
const RemoteStateFile = stateDir + "/remote.json"

// SyncKind is what long-term memory holds, and so all a sync takes from
// its remote: pages, CORE.md, log.md, raw sources, .trash/; never its
// .cerebro/ state, git's or Claude Code's configuration, or another hidden
// file.
var SyncKind = gitrepo.Kind{Name: "long-term memory", DotDirs: []string{forget.TrashDir}}

// Sync pushes the memory's history to url and takes the remote's commits
// back when it has some (see [gitrepo.Repo.Sync]); after the remote's
// changes came in, index.md's catalogue and the graph are rebuilt and
// committed. The result is kept in [RemoteStateFile] with command, the
// command that syncs on demand.
func (h *History) Sync(ctx context.Context, url, command string, now time.Time) (*gitrepo.SyncResult, error) {
	if err := h.need(); err != nil {
		return nil, err
	}
	var res *gitrepo.SyncResult
	err := h.store.WithLock(func() error {
		var err error
		res, err = h.Repo.Sync(ctx, url, SyncKind, now)
		return err
	})
	if err == nil && (res.State == gitrepo.SyncMerged || res.State == gitrepo.SyncFastForward) {
		// A catalogue merged line by line may hold both sides' lines out of
		// order; the rebuilt one is the catalogue of the merged pages.
		first := *res
		before, serr := h.Snapshot()
		if serr != nil {
			err = serr
		} else if _, ierr := h.store.RebuildIndex(); ierr != nil {
			err = ierr
		} else if hash, _, cerr := h.Commit(before, "sync: rebuild index.md after the remote's changes", now); cerr != nil {
			err = cerr
		} else if hash != "" {
			// The rebuilt index is a commit the remote lacks.
			err = h.store.WithLock(func() error {
				again, serr := h.Repo.Sync(ctx, url, SyncKind, now)
				if serr == nil {
					res = &first
					res.Head = again.Head
					if again.State == gitrepo.SyncDiverged || again.State == gitrepo.SyncBlocked {
						res = again
					}
				}
				return serr
			})
		}
	}
	rec := gitrepo.Record(res, err, url, command, now)
	if werr := gitrepo.WriteSyncRecord(h.store.Path(RemoteStateFile), rec); werr != nil && err == nil {
		err = werr
	}
	if err != nil {
		return nil, fmt.Errorf("sync long-term memory with %s: %w", rec.URL, err)
	}
	return res, nil
}

// LastSync reads the last sync's record, nil when memory never synced.
func (s *Store) LastSync() *gitrepo.SyncRecord {
	return gitrepo.ReadSyncRecord(s.Path(RemoteStateFile))
}
