// Package gitrepo is cerebro's only door to git, through go-git: no git
// executable is needed or run. It opens or creates a repository, commits
// named paths, and reads history back for logs, diffs, reverts and the
// rollup's activity figures.
//
// go-git runs no git hooks and does not sign commits; cerebro's commits are
// bookkeeping of memory and skill edits, made on the user's behalf.
package gitrepo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// ErrNoRepo means no repository holds the directory.
var ErrNoRepo = errors.New("not inside a git repository")

// ErrNothingToCommit means the named paths carry no change.
var ErrNothingToCommit = errors.New("nothing to commit")

// Repo is an open repository with a work tree.
type Repo struct {
	repo *git.Repository
	root string
	user []gitignore.Pattern // the user's global excludes ([Repo.UseUserExcludes])
	max  *int64              // the file bound ([Repo.BoundFiles]), shared with the work tree
}

// Commit is one commit, as cerebro shows it.
type Commit struct {
	Hash    string    `json:"hash"`
	Message string    `json:"message"`
	Author  string    `json:"author"`
	When    time.Time `json:"when"`
}

// AuthorName and AuthorEmail sign cerebro's commits.
const (
	AuthorName  = "cerebro"
	AuthorEmail = "cerebro@localhost"
)

// Open opens the repository whose work tree holds dir.
func Open(dir string) (*Repo, error) {
	r, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, fmt.Errorf("open repository at %s: %w", dir, ErrNoRepo)
	}
	if err != nil {
		return nil, fmt.Errorf("open repository at %s: %w", dir, err)
	}
	wt, err := r.Worktree()
	if err != nil {
		return nil, fmt.Errorf("open work tree at %s: %w", dir, err)
	}
	return &Repo{repo: r, root: wt.Filesystem.Root()}, nil
}

// Init opens the repository of dir's own (see [OpenAt]), creating it
// (branch main) when dir has none. A .git that is not dir's own (a gitfile,
// a link, a commondir) is refused with [ErrForeign], never committed into.
func Init(dir string) (*Repo, error) {
	max := newBound()
	r, err := openOwn(dir, max)
	if errors.Is(err, ErrNoRepo) {
		r, err = initOwn(dir, max)
	}
	if err != nil {
		return nil, err
	}
	return &Repo{repo: r, root: dir, max: max}, nil
}

// Root is the top of the work tree.
func (r *Repo) Root() string { return r.root }

// Rel turns a path into one relative to the work tree, slash-separated, and
// refuses paths outside it.
func (r *Repo) Rel(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	root := r.root
	if ev, err := filepath.EvalSymlinks(root); err == nil {
		root = ev
	}
	if ev, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(ev, filepath.Base(abs))
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the repository %s", path, r.root)
	}
	return filepath.ToSlash(rel), nil
}

// CommitPaths commits exactly the given paths (added, changed or deleted;
// absolute or relative to the work tree) and nothing else: whatever a
// person had staged stays staged, uncommitted. It returns
// [ErrNothingToCommit] when none of the paths changed.
func (r *Repo) CommitPaths(paths []string, message string, when time.Time) (string, error) {
	wt, err := r.repo.Worktree()
	if err != nil {
		return "", fmt.Errorf("open work tree: %w", err)
	}
	var rels []string
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(r.root, p)
		}
		rel, err := r.Rel(p)
		if err != nil {
			return "", err
		}
		rels = append(rels, rel)
	}
	saved, err := r.repo.Storer.Index()
	if err != nil {
		return "", fmt.Errorf("read index: %w", err)
	}
	saved = copyIndex(saved)
	// Start from an index equal to HEAD, so the commit holds only our paths.
	var headTree *object.Tree
	if head, err := r.repo.Head(); err == nil {
		c, err := r.repo.CommitObject(head.Hash())
		if err != nil {
			return "", fmt.Errorf("read HEAD: %w", err)
		}
		if headTree, err = c.Tree(); err != nil {
			return "", fmt.Errorf("read HEAD tree: %w", err)
		}
		if err := wt.Reset(&git.ResetOptions{Commit: head.Hash(), Mode: git.MixedReset}); err != nil {
			return "", fmt.Errorf("prepare index: %w", err)
		}
	} else if errors.Is(err, plumbing.ErrReferenceNotFound) {
		if err := r.repo.Storer.SetIndex(&index.Index{Version: 2}); err != nil {
			return "", fmt.Errorf("prepare index: %w", err)
		}
	} else {
		return "", fmt.Errorf("read HEAD: %w", err)
	}
	restore := func() error {
		committed, err := r.repo.Storer.Index()
		if err != nil {
			return fmt.Errorf("read index: %w", err)
		}
		kept := saved.Entries[:0]
		for _, e := range saved.Entries {
			if !underAny(e.Name, rels) {
				kept = append(kept, e)
			}
		}
		saved.Entries = kept
		for _, e := range committed.Entries {
			if underAny(e.Name, rels) {
				cp := *e
				saved.Entries = append(saved.Entries, &cp)
			}
		}
		if err := r.repo.Storer.SetIndex(saved); err != nil {
			return fmt.Errorf("restore index: %w", err)
		}
		return nil
	}
	for _, rel := range rels {
		abs := filepath.Join(r.root, filepath.FromSlash(rel))
		fi, err := os.Lstat(abs)
		if errors.Is(err, os.ErrNotExist) {
			wt.Remove(rel) // not tracked either: nothing to stage
			continue
		}
		if r.tooLarge(fi) {
			continue // not versioned: the version committed before stays
		}
		if fi.Mode().IsRegular() && fi.Size() > streamAddBytes {
			if err := r.addStreaming(rel, abs, fi); err != nil {
				restore()
				return "", err
			}
			continue
		}
		if _, err := wt.Add(rel); err != nil {
			restore()
			return "", fmt.Errorf("stage %s: %w", rel, err)
		}
	}
	changed, err := r.differsFromHead(rels, headTree)
	if err != nil {
		restore()
		return "", err
	}
	if !changed {
		if err := restore(); err != nil {
			return "", err
		}
		return "", ErrNothingToCommit
	}
	sig := object.Signature{Name: AuthorName, Email: AuthorEmail, When: when}
	h, err := wt.Commit(message, &git.CommitOptions{Author: &sig, Committer: &sig})
	if rerr := restore(); err == nil && rerr != nil {
		return "", rerr
	}
	if err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	return h.String(), nil
}

// differsFromHead compares the index with HEAD's tree under the given
// paths (files or folders).
func (r *Repo) differsFromHead(rels []string, head *object.Tree) (bool, error) {
	staged := map[string]plumbing.Hash{}
	idx, err := r.repo.Storer.Index()
	if err != nil {
		return false, fmt.Errorf("read index: %w", err)
	}
	for _, e := range idx.Entries {
		if underAny(e.Name, rels) {
			staged[e.Name] = e.Hash
		}
	}
	committed := map[string]plumbing.Hash{}
	if head != nil {
		err := eachFile(head, "", func(name string, h plumbing.Hash) error {
			if underAny(name, rels) {
				committed[name] = h
			}
			return nil
		})
		if err != nil {
			return false, fmt.Errorf("read HEAD tree: %w", err)
		}
	}
	if len(staged) != len(committed) {
		return true, nil
	}
	for name, h := range staged {
		if committed[name] != h {
			return true, nil
		}
	}
	return false, nil
}

// underAny reports whether a slash path is one of rels or inside one.
func underAny(name string, rels []string) bool {
	for _, rel := range rels {
		if rel != "" && under(name, rel) {
			return true
		}
	}
	return false
}

func copyIndex(i *index.Index) *index.Index {
	out := *i
	out.Entries = make([]*index.Entry, len(i.Entries))
	for n, e := range i.Entries {
		cp := *e
		out.Entries[n] = &cp
	}
	out.Cache = nil // the cached tree no longer matches once entries move
	return &out
}

// Log lists the commits touching path (all commits when path is ""),
// newest first, at most limit (0: no limit).
func (r *Repo) Log(path string, limit int) ([]Commit, error) {
	head, err := r.repo.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, nil // an empty repository has no history yet
	}
	if err != nil {
		return nil, fmt.Errorf("read HEAD: %w", err)
	}
	opts := &git.LogOptions{From: head.Hash()}
	if path != "" {
		rel := path
		if filepath.IsAbs(path) {
			if rel, err = r.Rel(path); err != nil {
				return nil, err
			}
		}
		rel = filepath.ToSlash(rel)
		opts.PathFilter = func(p string) bool { return p == rel || strings.HasPrefix(p, rel+"/") }
	}
	iter, err := r.repo.Log(opts)
	if err != nil {
		return nil, fmt.Errorf("read log: %w", err)
	}
	defer iter.Close()
	var out []Commit
	for {
		c, err := iter.Next()
		if err != nil {
			break
		}
		out = append(out, toCommit(c))
		if limit > 0 && len(out) >= limit {
			break
		}
	}
	return out, nil
}

func toCommit(c *object.Commit) Commit {
	return Commit{Hash: c.Hash.String(), Message: strings.TrimSpace(c.Message), Author: c.Author.Name, When: c.Author.When}
}

// FileAt returns the content of path (relative to the work tree) at the
// commit hash (a full or abbreviated hash, or "HEAD").
func (r *Repo) FileAt(hash, path string) ([]byte, error) {
	c, err := r.commit(hash)
	if err != nil {
		return nil, err
	}
	f, err := c.File(filepath.ToSlash(path))
	if err != nil {
		return nil, fmt.Errorf("read %s at %s: %w", path, hash, err)
	}
	s, err := f.Contents()
	if err != nil {
		return nil, fmt.Errorf("read %s at %s: %w", path, hash, err)
	}
	return []byte(s), nil
}

// CommittedFile returns file's content as committed at HEAD of the
// repository holding it, ignoring an edit not yet committed. It reads
// HEAD's commit and the trees down to the file, never the history: its
// cost is the same for a repository of three commits or of thousands (a
// skill's version reference was once taken by walking a plugin checkout's
// whole log, on the first memory call, for 20 seconds).
func CommittedFile(file string) ([]byte, error) {
	r, err := Open(filepath.Dir(file))
	if err != nil {
		return nil, err
	}
	return r.committed(file)
}

func (r *Repo) committed(file string) ([]byte, error) {
	rel, err := r.Rel(file)
	if err != nil {
		return nil, err
	}
	return r.FileAt("HEAD", rel)
}

func (r *Repo) commit(rev string) (*object.Commit, error) {
	h, err := r.repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", rev, err)
	}
	c, err := r.repo.CommitObject(*h)
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", rev, err)
	}
	return c, nil
}

// Activity is what the rollup shows of a repository.
type Activity struct {
	Last   *Commit `json:"last,omitempty"`
	Recent int     `json:"recent"` // commits on HEAD's history at or after since
}

// ActivitySince reads the last commit on HEAD and counts the commits made
// since the given time, stopping at the first older one in time order.
func (r *Repo) ActivitySince(since time.Time) (Activity, error) {
	var a Activity
	head, err := r.repo.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return a, nil
	}
	if err != nil {
		return a, fmt.Errorf("read HEAD: %w", err)
	}
	iter, err := r.repo.Log(&git.LogOptions{From: head.Hash(), Order: git.LogOrderCommitterTime})
	if err != nil {
		return a, fmt.Errorf("read log: %w", err)
	}
	defer iter.Close()
	var commits []*object.Commit
	for {
		c, err := iter.Next()
		if err != nil {
			break
		}
		if c.Committer.When.Before(since) {
			if len(commits) == 0 && a.Last == nil {
				last := toCommit(c)
				a.Last = &last
			}
			break
		}
		commits = append(commits, c)
	}
	sort.SliceStable(commits, func(i, j int) bool { return commits[i].Committer.When.After(commits[j].Committer.When) })
	if len(commits) > 0 {
		last := toCommit(commits[0])
		a.Last = &last
	}
	a.Recent = len(commits)
	return a, nil
}
