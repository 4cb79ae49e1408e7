package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/transport"
)

// Remotes: cerebro pushes memory to one git URL the user configured and
// pulls it back, through go-git. file:// (and a plain absolute path) is
// served in-process — go-git's own file transport would run the
// git-upload-pack and git-receive-pack programs, and cerebro never runs
// git — and ssh:// or user@host:path authenticate with the user's ssh
// agent (go-git's default). cerebro stores no credential: a URL holding a
// password is refused.

// Sync states.
const (
	SyncUpToDate    = "up to date"   // both sides hold the same history
	SyncPushed      = "pushed"       // the remote took our new commits
	SyncFastForward = "fast-forward" // we took the remote's new commits
	SyncMerged      = "merged"       // both had new commits; merged, then pushed
	SyncDiverged    = "diverged"     // both had new commits that do not merge cleanly; nothing changed
	SyncBlocked     = "blocked"      // uncommitted local edits stand where the remote's changes go; nothing changed
)

// remoteName names the remote-tracking refs of the configured URL
// (refs/remotes/cerebro/BRANCH); no remote is added to the repository's
// config.
const remoteName = "cerebro"

// SyncResult is what [Repo.Sync] did.
type SyncResult struct {
	State     string   `json:"state"`
	URL       string   `json:"url"`
	Branch    string   `json:"branch"`
	Head      string   `json:"head,omitempty"`      // the branch after the sync
	Remote    string   `json:"remote,omitempty"`    // the remote's branch as fetched
	Changed   []string `json:"changed,omitempty"`   // files the remote's commits changed here
	Conflicts []string `json:"conflicts,omitempty"` // diverged: the files that do not merge
	Blocked   []string `json:"blocked,omitempty"`   // blocked: the uncommitted files in the way
	// Refused are the files of the history this copy does not take from
	// a remote ([Kind]), each with why: never written here.
	Refused []string `json:"refused,omitempty"`
	Created bool     `json:"created,omitempty"` // the file:// remote did not exist and was made
	// Redacted are the remote's files that held a secret in clear: their
	// copy here has it replaced by its marker, committed, and pushed back
	// when the sync pushes ([Repo.Sync]).
	Redacted []string `json:"redacted,omitempty"`
}

// InitBare creates a bare repository at dir (a remote, in tests and for a
// person who keeps memory's remote on a shared disk).
func InitBare(dir string) error {
	_, err := git.PlainInitWithOptions(dir, &git.PlainInitOptions{
		Bare:        true,
		InitOptions: git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")},
	})
	if err != nil {
		return fmt.Errorf("init bare repository at %s: %w", dir, err)
	}
	return nil
}

// Sync brings the branch and the remote's branch of the same name together:
// it pushes; when the remote has commits this repository lacks (the push
// is rejected), it fetches them and fast-forwards, or merges when both
// sides have new commits that merge cleanly (see merge.go), then pushes
// again. When they do not merge, or local uncommitted edits stand where
// the remote's changes would go, neither side is touched and the result
// says why. Of the remote's files only those kind holds are written (see
// [Kind]); the rest are named in the result's Refused, on every sync
// while the history holds them. An error is a transport or repository
// failure.
func (r *Repo) Sync(ctx context.Context, rawURL string, kind Kind, when time.Time) (*SyncResult, error) {
	if err := CheckURL(rawURL); err != nil {
		return nil, err
	}
	useInProcessFile()
	s := &syncRun{r: r, kind: kind, url: rawURL, when: when, res: &SyncResult{URL: redactURL(rawURL)}}
	if err := s.run(ctx); err != nil {
		return nil, err
	}
	if s.res.State == SyncFastForward || s.res.State == SyncMerged {
		// A teammate's page is memory like any other: what it held in
		// clear is redacted the way a daily file is, and the redaction
		// goes back to the remote at once, so the next reader of the
		// remote's newest pages does not see it either.
		red, err := r.redactTaken(s.res.Changed, when)
		if err != nil {
			return nil, err
		}
		if len(red) > 0 {
			taken := *s.res
			if err := s.run(ctx); err != nil {
				return nil, err
			}
			taken.Head, taken.Remote, taken.Redacted = s.res.Head, s.res.Remote, red
			s.res = &taken
		}
	}
	head, err := r.repo.Reference(s.branch, true)
	if err == nil {
		if s.res.Refused, err = r.refusedIn(kind, head.Hash()); err != nil {
			return nil, err
		}
	} else if !errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, fmt.Errorf("read %s: %w", s.branch, err)
	}
	return s.res, nil
}

// syncRun is one [Repo.Sync].
type syncRun struct {
	r      *Repo
	kind   Kind
	url    string
	when   time.Time
	branch plumbing.ReferenceName
	res    *SyncResult
}

func (s *syncRun) run(ctx context.Context) error {
	r, res := s.r, s.res
	if dir, ok := localPath(s.url); ok {
		if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
			// A remote on a local or shared disk that is not there yet is
			// made, empty, so setting the URL is all the set-up it needs.
			if err := InitBare(dir); err != nil {
				return err
			}
			res.Created = true
		}
	}
	head, err := r.repo.Reference(plumbing.HEAD, false)
	if err != nil {
		return fmt.Errorf("read HEAD: %w", err)
	}
	if head.Type() != plumbing.SymbolicReference || !head.Target().IsBranch() {
		return errors.New("HEAD is not on a branch: check out a branch before syncing")
	}
	s.branch = head.Target()
	res.Branch = s.branch.Short()
	remote := git.NewRemote(r.repo.Storer, &config.RemoteConfig{Name: remoteName, URLs: []string{s.url}})
	tracking := plumbing.NewRemoteReferenceName(remoteName, s.branch.Short())
	for attempt := 0; attempt < 3; attempt++ {
		local, err := r.repo.Reference(s.branch, true)
		hasLocal := err == nil
		if err != nil && !errors.Is(err, plumbing.ErrReferenceNotFound) {
			return fmt.Errorf("read %s: %w", s.branch, err)
		}
		if hasLocal {
			res.Head = local.Hash().String()
			err := remote.PushContext(ctx, &git.PushOptions{RemoteName: remoteName, RefSpecs: []config.RefSpec{config.RefSpec(s.branch + ":" + s.branch)}})
			switch {
			case err == nil:
				if res.State == "" {
					res.State = SyncPushed
				}
				res.Remote = res.Head
				return nil
			case errors.Is(err, git.NoErrAlreadyUpToDate):
				if res.State == "" {
					res.State = SyncUpToDate
				}
				res.Remote = res.Head
				return nil
			case !strings.Contains(err.Error(), "non-fast-forward"):
				return fmt.Errorf("push to %s: %w", res.URL, err)
			}
		}
		err = remote.FetchContext(ctx, &git.FetchOptions{RemoteName: remoteName,
			RefSpecs: []config.RefSpec{config.RefSpec("+" + s.branch + ":" + tracking)}})
		switch {
		case err == nil, errors.Is(err, git.NoErrAlreadyUpToDate):
		case errors.Is(err, transport.ErrEmptyRemoteRepository), strings.Contains(err.Error(), "couldn't find remote ref"):
			if !hasLocal {
				res.State = SyncUpToDate // nothing on either side
				return nil
			}
			return fmt.Errorf("push to %s was refused, and the remote has no branch %s to fetch", res.URL, res.Branch)
		default:
			return fmt.Errorf("fetch from %s: %w", res.URL, err)
		}
		theirs, err := r.repo.Reference(tracking, true)
		if err != nil {
			return fmt.Errorf("read the fetched %s: %w", tracking, err)
		}
		res.Remote = theirs.Hash().String()
		var ours plumbing.Hash
		if hasLocal {
			ours = local.Hash()
		}
		state, err := s.integrate(ours, theirs.Hash())
		if err != nil {
			return err
		}
		if state != "" {
			res.State = state
		}
		if state == SyncDiverged || state == SyncBlocked {
			return nil
		}
		if state == SyncFastForward {
			res.Head = theirs.Hash().String()
			return nil // nothing of ours to push
		}
		// Merged: push the merge; a remote that moved meanwhile is fetched again.
	}
	return fmt.Errorf("sync with %s: the remote kept moving while it was merged; run sync again", res.URL)
}

// integrate takes theirs into the branch (at ours; zero when the branch
// has no commit yet): a fast-forward, a merge commit, or nothing. It
// returns the state, "" when ours already holds theirs.
func (s *syncRun) integrate(ours, theirs plumbing.Hash) (string, error) {
	r, res := s.r, s.res
	tc, err := r.repo.CommitObject(theirs)
	if err != nil {
		return "", fmt.Errorf("read the remote's commit: %w", err)
	}
	if ours == theirs {
		return "", nil
	}
	if ours.IsZero() {
		return s.moveTo(nil, tc, SyncFastForward)
	}
	oc, err := r.repo.CommitObject(ours)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", s.branch, err)
	}
	if ok, err := tc.IsAncestor(oc); err != nil {
		return "", fmt.Errorf("compare histories: %w", err)
	} else if ok {
		return "", nil // the remote is behind: the next push sends ours
	}
	if ok, err := oc.IsAncestor(tc); err != nil {
		return "", fmt.Errorf("compare histories: %w", err)
	} else if ok {
		return s.moveTo(oc, tc, SyncFastForward)
	}
	bases, err := oc.MergeBase(tc)
	if err != nil {
		return "", fmt.Errorf("find the common commit: %w", err)
	}
	if len(bases) == 0 {
		res.Conflicts = []string{"(no common history: this repository and the remote's were started separately; keep one — move this one aside and sync again to take the remote's)"}
		return SyncDiverged, nil
	}
	files := make([]map[string]entry, 3)
	for i, c := range []*object.Commit{bases[0], oc, tc} {
		t, err := c.Tree()
		if err != nil {
			return "", fmt.Errorf("read tree: %w", err)
		}
		if files[i], err = treeFiles(t); err != nil {
			return "", fmt.Errorf("read tree: %w", err)
		}
	}
	merged, conflicts, err := r.mergeFiles(s.kind, files[0], files[1], files[2])
	if err != nil {
		return "", err
	}
	if len(conflicts) > 0 {
		res.Conflicts = conflicts
		return SyncDiverged, nil
	}
	treeHash, err := r.buildTree(merged)
	if err != nil {
		return "", fmt.Errorf("write the merged tree: %w", err)
	}
	sig := object.Signature{Name: AuthorName, Email: AuthorEmail, When: s.when}
	mc := &object.Commit{Author: sig, Committer: sig, TreeHash: treeHash, ParentHashes: []plumbing.Hash{ours, theirs},
		Message: fmt.Sprintf("memhook sync: merge %s from %s", s.branch.Short(), redactURL(s.url))}
	obj := r.repo.Storer.NewEncodedObject()
	if err := mc.Encode(obj); err != nil {
		return "", fmt.Errorf("write the merge commit: %w", err)
	}
	mh, err := r.repo.Storer.SetEncodedObject(obj)
	if err != nil {
		return "", fmt.Errorf("write the merge commit: %w", err)
	}
	m, err := r.repo.CommitObject(mh)
	if err != nil {
		return "", fmt.Errorf("read the merge commit: %w", err)
	}
	return s.moveTo(oc, m, SyncMerged)
}

// moveTo updates the work tree from from's tree to to's, then the branch
// and the index. Only the files the kind takes are written or removed
// ([Repo.takes]); every one of them must be clean first (as committed in
// from, or absent when from lacks it), otherwise nothing changes and the
// state is blocked. Files it does not take stay on disk as they are.
func (s *syncRun) moveTo(from, to *object.Commit, state string) (string, error) {
	r, res := s.r, s.res
	fromFiles := map[string]entry{}
	if from != nil {
		t, err := from.Tree()
		if err != nil {
			return "", fmt.Errorf("read tree: %w", err)
		}
		if fromFiles, err = treeFiles(t); err != nil {
			return "", fmt.Errorf("read tree: %w", err)
		}
	}
	tt, err := to.Tree()
	if err != nil {
		return "", fmt.Errorf("read tree: %w", err)
	}
	toFiles, err := treeFiles(tt)
	if err != nil {
		return "", fmt.Errorf("read tree: %w", err)
	}
	var changed, left []string
	consider := func(p string) error {
		e, inTo := toFiles[p]
		why := ""
		if kept(p) {
			why = "kept"
		} else if inTo {
			var err error
			if why, err = r.takes(s.kind, p, e); err != nil {
				return err
			}
		} else {
			why = s.kind.refuses(p)
		}
		if why != "" {
			left = append(left, p)
		} else {
			changed = append(changed, p)
		}
		return nil
	}
	for p, e := range toFiles {
		if f, ok := fromFiles[p]; !ok || f != e {
			if err := consider(p); err != nil {
				return "", err
			}
		}
	}
	for p := range fromFiles {
		if _, ok := toFiles[p]; !ok {
			if err := consider(p); err != nil {
				return "", err
			}
		}
	}
	sort.Strings(changed)
	dirty, err := r.Dirty("")
	if err != nil {
		return "", err
	}
	var blocked []string
	for _, p := range changed {
		if _, ok := dirty[p]; ok {
			blocked = append(blocked, p)
			continue
		}
		if _, tracked := fromFiles[p]; !tracked {
			// Not in our history: an untracked or ignored file on disk
			// would be overwritten.
			if _, err := os.Lstat(filepath.Join(r.root, filepath.FromSlash(p))); err == nil {
				blocked = append(blocked, p)
			}
		}
	}
	if len(blocked) > 0 {
		res.Blocked = blocked
		return SyncBlocked, nil
	}
	for _, p := range changed {
		if err := r.checkout(p, toFiles); err != nil {
			return "", err
		}
	}
	// The files hold the new content before the branch moves: a crash in
	// between leaves edits a later commit keeps, never a branch whose
	// files are missing.
	if err := r.repo.Storer.SetReference(plumbing.NewHashReference(s.branch, to.Hash)); err != nil {
		return "", fmt.Errorf("move %s: %w", s.branch.Short(), err)
	}
	staged := slices.Clone(changed)
	for _, p := range left {
		// A file left as it was on disk is staged when it already is the
		// remote's (cerebro's own .gitignore on both sides); otherwise the
		// index keeps what it had, so a person's commit never takes it.
		if e, ok := toFiles[p]; ok {
			if same, err := r.sameOnDisk(p, e); err == nil && same {
				staged = append(staged, p)
			}
		}
	}
	if err := r.stage(staged, toFiles); err != nil {
		return "", err
	}
	res.Changed = changed
	res.Head = to.Hash.String()
	return state, nil
}
