package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
	"github.com/spf13/cobra"
)

// Remotes are user-only settings: a cloned repository may not choose
// where memory is sent (design §0.8). long.remote and org.remote are read
// from the user's settings (the user file and CEREBRO_* variables), never
// from a project's .claude/cerebro.toml; a project file that sets one is
// named and ignored.

// userRemote returns the user's value of key (long.remote or org.remote):
// where memory is sent is the person's choice alone, and one user setting
// serves every project ({project}). A project file that names a remote is
// dropped by config.Policy and named by doctor with every other such key.
func (f *Factory) userRemote(key string) (string, error) {
	user := f.Config("")
	val := user.Long.Remote
	if key == "org.remote" {
		val = user.Org.Remote
	}
	return strings.TrimSpace(val), nil
}

// longRemoteFor expands long.remote for the project at root.
func longRemoteFor(remote, root string) (string, error) {
	url, err := longterm.RemoteFor(remote, root)
	if err != nil {
		return "", withHint(err, `put {project} where the project's folder name goes, e.g. long.remote = "git@git.example.com:me/{project}-memory.git"`)
	}
	return url, nil
}

// syncLine says a sync's outcome in one line.
func syncLine(what string, res *gitrepo.SyncResult) string {
	switch res.State {
	case gitrepo.SyncDiverged:
		return fmt.Sprintf("%s: diverged from %s (%s); nothing changed on either side", what, res.URL, strings.Join(res.Conflicts, ", "))
	case gitrepo.SyncBlocked:
		return fmt.Sprintf("%s: not synced with %s: uncommitted edits stand where the remote's changes go: %s", what, res.URL, strings.Join(res.Blocked, ", "))
	case gitrepo.SyncMerged, gitrepo.SyncFastForward:
		return fmt.Sprintf("%s: %s with %s (%d files from the remote), at %.12s", what, res.State, res.URL, len(res.Changed), res.Head)
	}
	return fmt.Sprintf("%s: %s with %s, at %.12s", what, res.State, res.URL, res.Head)
}

func troubled(res *gitrepo.SyncResult) bool {
	return res.State == gitrepo.SyncDiverged || res.State == gitrepo.SyncBlocked
}

// LongSyncOptions are the inputs of `memhook long sync`.
type LongSyncOptions struct {
	*Factory
	Project string
	All     bool
	Home    string
	JSON    bool
}

func newCmdLongSync(f *Factory) *cobra.Command {
	opts := &LongSyncOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "sync [--project DIR | --all]",
		Short: "Push long-term memory to long.remote and take its new commits back",
		Long: `sync pushes the history of .claude/memory_long/ to long.remote (a git URL
from your own settings, {project} standing for the project's folder name:
file://, ssh:// or user@host:path with your ssh agent). When the remote has
commits this copy lacks, it fetches and fast-forwards, or merges when both
sides' changes merge cleanly (new pages, lines added to log.md, facts and
index.md); otherwise it changes neither side and says "diverged". The daily
schedule runs it for every registered project after the night.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return longSyncRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", "", "a directory inside the project (default: the current one)")
	cmd.Flags().BoolVar(&opts.All, "all", false, "every project registered with the org desk")
	cmd.Flags().StringVar(&opts.Home, "home", "", "the desk folder (default $CEREBRO_HOME or ~/cerebro)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the results as JSON")
	return cmd
}

func (f *Factory) useHome(home, what string) error {
	if home == "" {
		return nil
	}
	abs, err := filepath.Abs(home)
	if err != nil {
		return fmt.Errorf("%s: resolve --home: %w", what, err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return withHint(fmt.Errorf("%s: desk %s is not a folder", what, abs), "pass --home with the desk folder ($CEREBRO_HOME, default ~/cerebro)")
	}
	f.Paths.Home = abs
	return nil
}

func longSyncRun(opts *LongSyncOptions) error {
	if opts.All && opts.Project != "" {
		return usagef("pass one of them", "long sync: --all and --project exclude each other")
	}
	if err := opts.useHome(opts.Home, "long sync"); err != nil {
		return err
	}
	remote, err := opts.userRemote("long.remote")
	if err != nil {
		return err
	}
	roots, err := opts.projectRoots("long sync", opts.All, opts.Project)
	if err != nil {
		return err
	}
	if remote == "" {
		if opts.All {
			if opts.Terminal {
				fmt.Fprintln(opts.Err, "long sync: long.remote is not set; nothing to sync")
			}
			return nil
		}
		eff := opts.Config("")
		return withHint(errors.New("long sync: long.remote is not set"),
			`set it in `+eff.UserFile+`, e.g. long.remote = "git@git.example.com:me/{project}-memory.git" ({project} is the project's folder name)`)
	}
	quiet := opts.All && !opts.Terminal && !opts.JSON
	var results []map[string]any
	bad := 0
	for _, root := range roots {
		res, err := opts.longSyncOne(root, remote)
		row := map[string]any{"project": root}
		switch {
		case err != nil:
			bad++
			row["error"] = err.Error()
			if !opts.JSON {
				fmt.Fprintf(opts.Err, "memhook: error: long sync %s: %v\n", root, err)
			}
		case res == nil:
			row["skipped"] = "long-term memory has no history of its own"
		default:
			row["result"] = res
			line := syncLine("long sync "+root, res)
			if troubled(res) {
				bad++
				if !opts.JSON {
					fmt.Fprintln(opts.Err, "memhook: "+line)
					fmt.Fprintf(opts.Err, "memhook: hint: %s\n", syncHint(res, filepath.Join(root, ".claude", "memory_long"), "memhook long sync --project "+root))
				}
			} else if !opts.JSON && !quiet {
				fmt.Fprintln(opts.Out, line)
			}
		}
		results = append(results, row)
	}
	if opts.JSON {
		if err := writeJSON(opts.Out, results); err != nil {
			return err
		}
	}
	if bad > 0 {
		return &exitError{code: 1}
	}
	return nil
}

// longSyncOne syncs one project's memory; nil, nil when it has no history
// of its own to sync.
func (f *Factory) longSyncOne(root, remote string) (*gitrepo.SyncResult, error) {
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("project folder %s is not reachable", root)
	}
	url, err := longRemoteFor(remote, root)
	if err != nil {
		return nil, err
	}
	s, _, err := f.longStore(root)
	if err != nil {
		return nil, err
	}
	h, err := f.history(s, root)
	if err != nil {
		return nil, err
	}
	if !h.Versioned() {
		return nil, nil
	}
	return h.Sync(context.Background(), url, "memhook long sync --project "+root, f.Now())
}

// syncHint is what a person does about a troubled sync.
func syncHint(res *gitrepo.SyncResult, dir, again string) string {
	if res.State == gitrepo.SyncBlocked {
		return "commit or undo those edits in " + dir + " (the night commits memory's edits), then run `" + again + "`"
	}
	return "merge the two by hand with your git in " + dir + " (git pull " + res.URL + " " + res.Branch + "), then run `" + again + "`"
}
