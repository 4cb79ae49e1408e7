package orgvault

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
)

// RemoteStateFile keeps the last sync of the vault with org.remote, in the
// desk's private folder (the vault's .gitignore keeps .claude/ out).
const RemoteStateFile = ".claude/memory_short/org-remote.json"

// Sync shares the vault through url: it pushes, and takes the remote's
// commits back (a fast-forward, or a merge of new pages and added lines),
// under the vault's lock; see [gitrepo.Repo.Sync]. A desk with no vault
// yet starts a repository and takes the remote's history: a teammate's
// first sync is their clone. The result is kept in [RemoteStateFile] with
// command, what syncs on demand.
func Sync(ctx context.Context, root, url, command string, now time.Time) (*gitrepo.SyncResult, error) {
	repo, err := gitrepo.Init(root)
	if err != nil {
		return nil, fmt.Errorf("open the vault's repository: %w", err)
	}
	v := &Vault{Root: root, repo: repo}
	res, err := locked(v, func() (*gitrepo.SyncResult, error) { return repo.Sync(ctx, url, now) })
	rec := gitrepo.Record(res, err, url, command, now)
	if werr := gitrepo.WriteSyncRecord(filepath.Join(root, filepath.FromSlash(RemoteStateFile)), rec); werr != nil && err == nil {
		err = werr
	}
	if err != nil {
		return nil, fmt.Errorf("sync the org vault with %s: %w", rec.URL, err)
	}
	return res, nil
}

// LastSync reads the vault's last sync record, nil when it never synced.
func LastSync(root string) *gitrepo.SyncRecord {
	return gitrepo.ReadSyncRecord(filepath.Join(root, filepath.FromSlash(RemoteStateFile)))
}
