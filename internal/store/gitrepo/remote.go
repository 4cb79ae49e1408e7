package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/go-git/go-billy/v5/osfs"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/client"
	"github.com/go-git/go-git/v5/plumbing/transport/server"
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

// localPath is the folder of a file:// URL or an absolute path.
func localPath(raw string) (string, bool) {
	if filepath.IsAbs(raw) {
		return raw, true
	}
	if u, err := url.Parse(raw); err == nil && u.Scheme == "file" && u.Path != "" {
		return filepath.FromSlash(u.Path), true
	}
	return "", false
}

var installFile sync.Once

// useInProcessFile serves file:// remotes inside this process.
func useInProcessFile() {
	installFile.Do(func() {
		loader := streamingLoader{}
		client.InstallProtocol("file", fileTransport{Transport: server.NewClient(loader), loader: loader})
	})
}

// fileTransport is go-git's in-process server with one fix: a fetch tells
// the server the commits it has, and git ignores those it does not know,
// while go-git's server fails on them ("object not found") — which is
// every fetch by a clone that has commits of its own to merge.
type fileTransport struct {
	transport.Transport
	loader server.Loader
}

func (f fileTransport) NewUploadPackSession(ep *transport.Endpoint, auth transport.AuthMethod) (transport.UploadPackSession, error) {
	sess, err := f.Transport.NewUploadPackSession(ep, auth)
	if err != nil {
		return nil, err
	}
	sto, err := f.loader.Load(ep)
	if err != nil {
		sess.Close()
		return nil, err
	}
	return &knownHaves{UploadPackSession: sess, sto: sto}, nil
}

// streamingLoader opens a file:// remote as go-git's own loader does,
// with the object store of [newStorage]: the in-process server packs a
// large blob for the fetch as a stream, not read whole into memory.
type streamingLoader struct{}

func (streamingLoader) Load(ep *transport.Endpoint) (storer.Storer, error) {
	fs := osfs.New(ep.Path, osfs.WithBoundOS())
	if _, err := fs.Stat("config"); err != nil {
		if _, err := fs.Stat(git.GitDirName); err != nil {
			return nil, transport.ErrRepositoryNotFound
		}
		if fs, err = fs.Chroot(git.GitDirName); err != nil {
			return nil, err
		}
	}
	return newStorage(fs), nil
}

type knownHaves struct {
	transport.UploadPackSession
	sto storer.EncodedObjectStorer
}

func (k *knownHaves) UploadPack(ctx context.Context, req *packp.UploadPackRequest) (*packp.UploadPackResponse, error) {
	kept := req.Haves[:0]
	for _, h := range req.Haves {
		if k.sto.HasEncodedObject(h) == nil {
			kept = append(kept, h)
		}
	}
	req.Haves = kept
	return k.UploadPackSession.UploadPack(ctx, req)
}

// CheckURL refuses what cerebro will not push to: an unknown scheme and a
// URL carrying a password (cerebro stores no credential; use ssh with an
// agent).
func CheckURL(raw string) error {
	raw = strings.TrimSpace(raw)
	switch {
	case raw == "":
		return errors.New("the remote URL is empty")
	case filepath.IsAbs(raw):
		return nil
	}
	if u, err := url.Parse(raw); err == nil && u.Scheme != "" && len(u.Scheme) > 1 {
		switch u.Scheme {
		case "file", "ssh", "https", "http":
		default:
			return fmt.Errorf("remote %s: scheme %q is not supported (file://, ssh://, user@host:path, https://)", redactURL(raw), u.Scheme)
		}
		if _, has := u.User.Password(); has {
			return fmt.Errorf("remote %s holds a password: cerebro stores no credential; use ssh with your agent", redactURL(raw))
		}
		return nil
	}
	// scp-like: [user@]host:path
	if i := strings.Index(raw, ":"); i > 0 && !strings.Contains(raw[:i], "/") {
		return nil
	}
	return fmt.Errorf("remote %q is not a git URL (file://, ssh://, user@host:path, https://)", raw)
}

// redactURL hides a password in a URL before it is shown.
func redactURL(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
			return u.String()
		}
	}
	return raw
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

// stage sets the index entries of paths to files' (or removes them),
// with the size and time of the file on disk, so the files read as clean.
// Unlike go-git's Add it never reads a file: its blob is known.
func (r *Repo) stage(paths []string, files map[string]entry) error {
	if len(paths) == 0 {
		return nil
	}
	idx, err := r.repo.Storer.Index()
	if err != nil {
		return fmt.Errorf("read the index: %w", err)
	}
	for _, p := range paths {
		e, keep := files[p]
		if !keep {
			if _, err := idx.Remove(p); err != nil && !errors.Is(err, index.ErrEntryNotFound) {
				return fmt.Errorf("update the index for %s: %w", p, err)
			}
			continue
		}
		fi, err := safefs.Lstat(filepath.Join(r.root, filepath.FromSlash(p)))
		if err != nil {
			return fmt.Errorf("update the index for %s: %w", p, err)
		}
		ie, err := idx.Entry(p)
		if err != nil {
			ie = idx.Add(p)
		}
		ie.Hash, ie.Mode, ie.Size, ie.ModifiedAt = e.hash, e.mode, uint32(fi.Size()), fi.ModTime()
	}
	if err := r.repo.Storer.SetIndex(idx); err != nil {
		return fmt.Errorf("write the index: %w", err)
	}
	return nil
}

// checkout writes the tree's file p into the work tree, streamed from its
// blob (never held whole in memory), or removes it when files lack it.
func (r *Repo) checkout(p string, files map[string]entry) error {
	abs := filepath.Join(r.root, filepath.FromSlash(p))
	e, keep := files[p]
	if !keep {
		d, err := safefs.OpenDir(r.root, filepath.Dir(abs), false)
		if err != nil {
			return fmt.Errorf("remove %s: %w", p, err)
		}
		err = d.Remove(filepath.Base(abs))
		d.Close()
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", p, err)
		}
		return nil
	}
	b, err := r.repo.BlobObject(e.hash)
	if err != nil {
		return fmt.Errorf("read %s: %w", p, err)
	}
	rd, err := b.Reader()
	if err != nil {
		return fmt.Errorf("read %s: %w", p, err)
	}
	defer rd.Close()
	d, err := safefs.OpenDir(r.root, filepath.Dir(abs), true)
	if err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	d.Close()
	perm := os.FileMode(0o644)
	if e.mode == filemode.Executable {
		perm = 0o755
	}
	n, err := atomicfile.WriteFrom(abs, io.LimitReader(rd, b.Size), perm)
	if err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	if n != b.Size {
		return fmt.Errorf("write %s: the blob held %d of its %d bytes", p, n, b.Size)
	}
	return nil
}

func ignoredBy(m interface{ Match([]string, bool) bool }, p string) bool {
	parts := strings.Split(p, "/")
	for i := 1; i <= len(parts); i++ {
		if m.Match(parts[:i], i < len(parts)) {
			return true
		}
	}
	return false
}

func safeTreePath(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") {
		return false
	}
	for _, part := range strings.Split(p, "/") {
		if part == "" || part == "." || part == ".." || strings.EqualFold(part, ".git") {
			return false
		}
	}
	return true
}
