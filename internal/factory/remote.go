package factory

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/org/orgvault"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// ErrNoRemote means the remote a sync needs (long.remote or org.remote)
// is not set in the user's settings; the error's hint says where to.
var ErrNoRemote = errors.New("is not set")

// remote is the user's value of key (long.remote or org.remote), or an
// error naming cmd, wrapping [ErrNoRemote], whose hint shows example.
// Where memory is sent is the person's choice alone, and one user setting
// serves every project ({project}): a project file that names a remote is
// dropped by config.Policy and named by doctor with every other such key.
func (f *Factory) remote(cmd, key, example string) (string, error) {
	user := f.Config("")
	r := user.Long.Remote
	if key == "org.remote" {
		r = user.Org.Remote
	}
	if r = strings.TrimSpace(r); r != "" {
		return r, nil
	}
	return "", hint.Wrap(fmt.Errorf("%s: %s %w", cmd, key, ErrNoRemote), "set it in "+f.Config("").UserFile+", e.g. "+example)
}

// OrgSync shares the desk's vault through the user's org.remote: it pushes
// and takes the team's new commits. A desk folder not there yet is made,
// as a teammate's first sync is their clone.
func (f *Factory) OrgSync(ctx context.Context) (*gitrepo.SyncResult, error) {
	remote, err := f.remote("org sync", "org.remote", `org.remote = "git@git.example.com:team/org-knowledge.git"`)
	if err != nil {
		return nil, err
	}
	home := f.Paths.Home
	if err := safefs.MkdirAll(home); err != nil {
		return nil, fmt.Errorf("org sync: create %s: %w", home, err)
	}
	res, err := orgvault.Sync(ctx, home, remote, "memhook org sync", f.Config("").Limits.IngestBytes, f.Now())
	if err != nil {
		return nil, hint.Wrap(err, "check the URL and your ssh agent (ssh-add -l); cerebro stores no credential")
	}
	return res, nil
}

// LongSync syncs the long-term memory of roots with the user's
// long.remote, one row per project.
func (f *Factory) LongSync(ctx context.Context, roots []string) ([]longterm.SyncRow, error) {
	remote, err := f.remote("long sync", "long.remote", `long.remote = "git@git.example.com:me/{project}-memory.git" ({project} is the project's folder name)`)
	if err != nil {
		return nil, err
	}
	return longterm.SyncAll(ctx, longterm.SyncRequest{Roots: roots, Remote: remote, Now: f.Now(), Open: f.OpenHistory}), nil
}
