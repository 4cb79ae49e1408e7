package orgvault

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// RemoteStateFile keeps the last sync of the vault with org.remote, in the
// desk's private folder (the vault's .gitignore keeps .claude/ out).
const RemoteStateFile = ".claude/memory_short/org-remote.json"

// SyncKind is what an org vault holds, and so all a sync takes from a remote:
// its notes, sources and templates, .trash/; never the desk's private
// .claude/, git's or Claude Code's configuration, or another hidden file.
var SyncKind = gitrepo.Kind{Name: "an org vault", DotDirs: []string{TrashDir}}

// Sync shares the vault through url: it pushes, and takes the remote's
// commits back (a fast-forward, or a merge of new pages and added lines),
// under the vault's lock; see [gitrepo.Repo.Sync]. Only what [SyncKind] holds
// is written, each file bounded by maxBytes (the desk's
// limits.ingest_bytes). A desk with no vault yet starts a repository, with
// cerebro's .gitignore, and takes the remote's history: a teammate's first
// sync is their clone, under the same rule as every later one. The result
// is kept in [RemoteStateFile] with command, what syncs on demand.
func Sync(ctx context.Context, root, url, command string, maxBytes int64, now time.Time) (*gitrepo.SyncResult, error) {
	repo, err := gitrepo.Init(root)
	if err != nil {
		return nil, fmt.Errorf("open the vault's repository: %w", err)
	}
	repo.BoundFiles(maxBytes)
	v := &Vault{Root: root, repo: repo}
	res, err := locked(v, func() (*gitrepo.SyncResult, error) {
		if err := keepPrivate(root); err != nil {
			return nil, err
		}
		return repo.Sync(ctx, url, SyncKind, now)
	})
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

// keepPrivate makes sure the desk's .gitignore keeps its private folder
// out of a person's commits: it writes cerebro's own on a desk that has
// none (a teammate's first sync), and adds the line to one that lost it.
func keepPrivate(root string) error {
	p := filepath.Join(root, ".gitignore")
	data, err := safefs.ReadFile(p, 1<<20)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		data = []byte(ignoreText)
	case err != nil:
		return fmt.Errorf("read %s: %w", p, err)
	default:
		for _, line := range strings.Split(string(data), "\n") {
			if t := strings.TrimSpace(line); t == privateLine || t == "/"+privateLine {
				return nil
			}
		}
		if len(data) > 0 && data[len(data)-1] != '\n' {
			data = append(data, '\n')
		}
		data = append(data, "# written by memhook org sync: the desk's private memory never leaves this machine\n"+privateLine+"\n"...)
	}
	if err := atomicfile.Write(p, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	return nil
}
