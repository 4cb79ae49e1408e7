package longterm

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Values of long.git: where the history of long-term memory lives.
const (
	// GitAuto keeps memory_long/ in a repository of its own, unless the
	// project's repository already tracks files under it: the person chose
	// to commit memory with the project, and cerebro then commits nothing.
	GitAuto = "auto"
	// GitOwn always keeps a repository of its own in memory_long/.
	GitOwn = "own"
	// GitProject leaves memory to the project's repository: no commits.
	GitProject = "project"
	// GitOff keeps no history.
	GitOff = "off"
)

// historyIgnore keeps caches and bulky sources out of the history: the
// graph is rebuilt at will, .cerebro/ holds locks and caches, raw/_large/
// holds files above the size limit, which would bloat every clone, and
// .trash/ what memhook forget took back.
// The same file keeps them, and the lock files beside the records, out of
// the project's git when the project shares memory.
const historyIgnore = ignoreHead + "\n.cerebro/\ngraph.json\nraw/_large/\n.trash/\n" + lockIgnore + "\n"

const (
	ignoreHead = "# written by memhook: caches, large sources and what was forgotten stay out of the history"
	lockIgnore = "*.lock"
)

// History is the version history of one long-term memory. When Repo is nil
// nothing is committed and Note says why.
type History struct {
	Repo *gitrepo.Repo
	Note string
	// Refused is set when memory_long/.git is not memory's own repository
	// (a gitfile, a link, a shared object store): nothing is committed.
	Refused error
	store   *Store
	prefix  string // the long-term root relative to the repository ("" for its own)
}

// Versioned reports whether changes are committed.
func (h *History) Versioned() bool { return h != nil && h.Repo != nil }

// GitDir is where the history of the long-term memory at dir is stored:
// <project>/.claude/.cerebro/memory_long.git, beside the memory folder
// and outside it, in the folder of cerebro's locks that the project's git
// ignores (see [safefs.MkdirAll]). A .git inside memory_long/ made the
// project's `git add -A` stage an embedded repository (a gitlink) instead
// of the memory's files.
func GitDir(dir string) string {
	return filepath.Join(filepath.Dir(dir), stateDir, filepath.Base(dir)+".git")
}

// History opens (creating when needed) the repository of the long-term
// memory, following mode (one of the Git* values; "" is auto). A new
// repository gets a .gitignore and a first commit of what is there. Its
// git dir is [GitDir]; a .git a former cerebro made inside memory_long/
// is moved there first, history and all.
func (s *Store) History(mode string, now time.Time) (*History, error) {
	if err := s.requireScaffold(); err != nil {
		return nil, err
	}
	h := &History{store: s}
	// The rules keep the locks and caches out of the project's git too,
	// whatever keeps the history.
	if err := s.WithLock(func() error { return createIgnore(s.Path(".gitignore")) }); err != nil {
		return nil, err
	}
	gitDir := GitDir(s.Dir)
	err := gitrepo.CheckOwn(s.Dir)
	if errors.Is(err, gitrepo.ErrForeign) {
		// Planted by a repository to have cerebro commit into another one.
		h.Refused = err
		h.Note = fmt.Sprintf("refused: %v; cerebro commits nothing (remove memory_long/.git to start a history of its own)", err)
		return h, nil
	}
	embedded := err == nil
	if _, serr := os.Lstat(gitDir); embedded && errors.Is(serr, os.ErrNotExist) {
		if err := s.WithLock(func() error { return gitrepo.MoveGitDirOut(s.Dir, gitDir) }); err != nil {
			return nil, fmt.Errorf("move the history of long-term memory out of %s: %w", s.Dir, err)
		}
		embedded = false
	}
	r, err := gitrepo.OpenSeparate(s.Dir, gitDir)
	if errors.Is(err, gitrepo.ErrForeign) {
		h.Refused = err
		h.Note = fmt.Sprintf("refused: %v; cerebro commits nothing (remove %s to start a history of its own)", err, gitDir)
		return h, nil
	}
	if err == nil {
		if mode == GitOff || mode == GitProject {
			h.Note = fmt.Sprintf("long.git = %s: long-term memory has a history in %s but cerebro commits nothing", mode, gitDir)
			return h, nil
		}
		if err := r.UseUserExcludes(s.GitUser); err != nil {
			return nil, fmt.Errorf("read the user's git excludes: %w", err)
		}
		r.BoundFiles(s.IngestBytes)
		h.Repo = r
		if embedded {
			// Both: an older cerebro ran after this one moved the history.
			h.Note = fmt.Sprintf("memory_long/.git is left over beside the history in %s, which cerebro commits into; remove memory_long/.git so the project's git sees plain files", gitDir)
		}
		return h, nil
	}
	switch mode {
	case GitOff:
		h.Note = "long.git = off: no history is kept"
		return h, nil
	case GitProject:
		h.Note = "long.git = project: memory is committed with the project's repository, by you; cerebro commits nothing"
		return h, nil
	case "", GitAuto:
		if s.Project != "" {
			if pr, err := gitrepo.Open(s.Project); err == nil {
				if rel, err := pr.Rel(s.Dir); err == nil {
					if tracked, err := pr.Tracks(rel); err == nil && tracked {
						h.Note = "the project's repository tracks " + rel + ": memory is committed there, by you; cerebro commits nothing"
						return h, nil
					}
				}
			}
		}
	case GitOwn:
	default:
		return nil, fmt.Errorf("long.git = %q: want auto, own, project or off", mode)
	}
	err = s.WithLock(func() error {
		var err error
		if r, err = gitrepo.InitSeparate(s.Dir, gitDir); err != nil {
			return fmt.Errorf("start the history of long-term memory: %w", err)
		}
		r.BoundFiles(s.IngestBytes)
		if err := r.UseUserExcludes(s.GitUser); err != nil {
			return fmt.Errorf("read the user's git excludes: %w", err)
		}
		dirty, err := r.Dirty("")
		if err != nil {
			return err
		}
		if _, err := r.CommitPaths(sortedKeys(dirty), "memhook: start the history of long-term memory", now); err != nil && !errors.Is(err, gitrepo.ErrNothingToCommit) {
			return fmt.Errorf("first commit of long-term memory: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	h.Repo = r
	return h, nil
}

// createIgnore writes memory's .gitignore, or adds the lock files' rule
// to one an older memhook wrote without it.
func createIgnore(p string) error {
	if _, err := os.Lstat(p); err == nil {
		old, err := safefs.ReadFile(p, 64<<10)
		if err != nil || !strings.HasPrefix(string(old), ignoreHead) || slices.Contains(strings.Split(string(old), "\n"), lockIgnore) {
			return nil
		}
		if err := atomicfile.Write(p, append(old, []byte(lockIgnore+"\n")...), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", p, err)
		}
		return nil
	}
	if err := atomicfile.Write(p, []byte(historyIgnore), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	return nil
}

// Snapshot is the state of the uncommitted files before a step.
type Snapshot map[string]string

// Snapshot records which files differ from the last commit, and how.
func (h *History) Snapshot() (Snapshot, error) {
	if !h.Versioned() {
		return nil, nil
	}
	d, err := h.Repo.Dirty(h.prefix)
	return Snapshot(d), err
}

// Commit commits the files that changed since before, and only those, as
// one commit "memhook ACTION: files". A file a person edited before the
// step and the step left alone stays uncommitted. It returns the commit
// ("" when nothing changed or nothing is versioned) and its files.
func (h *History) Commit(before Snapshot, action string, now time.Time) (string, []string, error) {
	if !h.Versioned() {
		return "", nil, nil
	}
	var hash string
	var paths []string
	err := h.store.WithLock(func() error {
		after, err := h.Repo.Dirty(h.prefix)
		if err != nil {
			return err
		}
		for p, sum := range after {
			if old, ok := before[p]; !ok || old != sum {
				paths = append(paths, p)
			}
		}
		if len(paths) == 0 {
			return nil
		}
		sort.Strings(paths)
		hash, err = h.Repo.CommitPaths(paths, commitMessage(action, paths), now)
		if errors.Is(err, gitrepo.ErrNothingToCommit) {
			hash, err = "", nil
		}
		return err
	})
	if err != nil {
		return "", nil, fmt.Errorf("commit %s: %w", action, err)
	}
	if hash == "" {
		paths = nil
	}
	return hash, paths, nil
}

// CommitAll commits every uncommitted change (a person's edits the night
// finds) as one commit.
func (h *History) CommitAll(action string, now time.Time) (string, []string, error) {
	return h.Commit(nil, action, now)
}

// ownCaches are the paths memhook's own .gitignore keeps out of the
// history on purpose (caches and bulky sources): never reported as
// outside the backup.
var ownCaches = []string{".cerebro/", "graph.json", "raw/_large/"}

// OutsideBackup returns the paths (relative to the long-term root) that
// the repository's ignore rules — .gitignore, .git/info/exclude, the
// user's global excludes — keep out of every commit: they stay on disk and
// in no backup. Tracked files are never listed: git keeps committing them.
func (h *History) OutsideBackup(paths []string) ([]string, error) {
	if !h.Versioned() || len(paths) == 0 {
		return nil, nil
	}
	var ask []string
	for _, p := range paths {
		own := path.Ext(p) == ".lock"
		for _, c := range ownCaches {
			if p == strings.TrimSuffix(c, "/") || strings.HasPrefix(p, c) {
				own = true
			}
		}
		if !own {
			ask = append(ask, p)
		}
	}
	out, err := h.Repo.Ignored(ask)
	if err != nil {
		return nil, fmt.Errorf("check the git ignore rules: %w", err)
	}
	return out, nil
}

// Pending lists the files that differ from the last commit.
func (h *History) Pending() ([]string, error) {
	s, err := h.Snapshot()
	return sortedKeys(s), err
}

func commitMessage(action string, paths []string) string {
	shown := paths
	if len(shown) > 6 {
		shown = shown[:6]
	}
	msg := "memhook " + action + ": " + strings.Join(shown, ", ")
	if n := len(paths) - len(shown); n > 0 {
		msg += fmt.Sprintf(" and %d more", n)
	}
	return msg
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// historyPath checks a PATH argument of `long log|diff|revert`: a page or
// folder relative to the long-term root ("" or "." for all of it).
func (h *History) historyPath(p string) (string, error) {
	p = strings.Trim(filepath.ToSlash(strings.TrimSpace(p)), "/")
	if p == "" || p == "." {
		return h.prefix, nil
	}
	if filepath.IsAbs(p) || p == ".." || strings.HasPrefix(p, "../") || strings.Contains(p, "/../") {
		return "", pageError(p, "give a path relative to .claude/memory_long")
	}
	if h.prefix != "" {
		p = h.prefix + "/" + p
	}
	return p, nil
}

// ErrNoHistory says the memory is not versioned by cerebro.
var ErrNoHistory = errors.New("long-term memory has no history of its own")

func (h *History) need() error {
	if h.Versioned() {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrNoHistory, h.Note)
}

// Log lists the commits that touched path, newest first.
func (h *History) Log(path string, limit int) ([]gitrepo.Commit, error) {
	if err := h.need(); err != nil {
		return nil, err
	}
	rel, err := h.historyPath(path)
	if err != nil {
		return nil, err
	}
	return h.Repo.Log(rel, limit)
}

// Diff shows what commit rev (default: the latest touching path) changed
// under path.
func (h *History) Diff(path, rev string) (string, error) {
	if err := h.need(); err != nil {
		return "", err
	}
	rel, err := h.historyPath(path)
	if err != nil {
		return "", err
	}
	if rev == "" {
		log, err := h.Repo.Log(rel, 1)
		if err != nil {
			return "", err
		}
		if len(log) == 0 {
			return "", fmt.Errorf("long diff: %s has no commits", orAll(path))
		}
		rev = log[0].Hash
	}
	parent, err := h.Repo.Parent(rev)
	if err != nil {
		return "", err
	}
	return h.Repo.Diff(rel, parent, rev)
}

// ErrNoPrevious means the path has a single committed version.
var ErrNoPrevious = errors.New("no previous version to revert to")

// Revert restores path's previous committed version as a new commit
// (history is never rewritten). Uncommitted edits of path are committed
// first, so the revert can itself be reverted.
func (h *History) Revert(path string, now time.Time) (string, error) {
	if err := h.need(); err != nil {
		return "", err
	}
	rel, err := h.historyPath(path)
	if err != nil {
		return "", err
	}
	if rel == h.prefix {
		return "", errors.New("long revert: name a page or folder, not the whole memory")
	}
	var hash string
	err = h.store.WithLock(func() error {
		dirty, err := h.Repo.Dirty(rel)
		if err != nil {
			return err
		}
		if len(dirty) > 0 {
			if _, err := h.Repo.CommitPaths(sortedKeys(dirty), commitMessage("keep uncommitted edits before a revert", sortedKeys(dirty)), now); err != nil && !errors.Is(err, gitrepo.ErrNothingToCommit) {
				return err
			}
		}
		log, err := h.Repo.Log(rel, 2)
		if err != nil {
			return err
		}
		if len(log) < 2 {
			return fmt.Errorf("long revert %s: %w", path, ErrNoPrevious)
		}
		hash, err = h.Repo.RestorePath(rel, log[1].Hash, fmt.Sprintf("memhook revert: %s to %.12s (%s)", rel, log[1].Hash, firstLine(log[1].Message)), now)
		return err
	})
	return hash, err
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func orAll(p string) string {
	if p == "" {
		return "long-term memory"
	}
	return p
}
