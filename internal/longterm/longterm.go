// Package longterm keeps a project's long-term memory (design §4) under
// <project>/.claude/memory_long/: the scaffold and its switch, ingest of
// sources into raw/, the compile of closed short-term days, dated facts and
// compiled truth on pages, CORE.md, the generated index.md and graph file,
// log.md, lint, and the week/month/year roll-ups of daily distillates.
//
// Open a project with [New] (or build a [Store] by hand for a bare vault);
// every method that changes files takes the store's lock, writes
// atomically, and appends one line to log.md. Functions take the current
// time as a parameter; nothing here reads the clock or the environment.
package longterm

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
	"github.com/cerebro-mem/cerebro/internal/store/rawfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Names of the scaffold's files and folders, relative to the long-term root.
const (
	SchemaFile  = "SCHEMA.md"
	IndexFile   = "index.md"
	LogFile     = "log.md"
	CoreFile    = "CORE.md"
	GraphFile   = "graph.json"
	RawDir      = rawfile.Dir
	LargeDir    = rawfile.LargeDir
	WikiDir     = "wiki"
	PrivateDir  = "wiki/_private"
	SourcesDir  = "wiki/sources"
	OffMarker   = project.LongOffMarker
	stateDir    = ".cerebro" // hidden: Obsidian and the wiki loader skip it
	lockName    = "write"
	stampLayout = "2006-01-02 15:04"
)

// Store is one project's long-term memory and the short-term folders its
// evidence links point into.
type Store struct {
	Project    string // project root ("" for a bare vault)
	Dir        string // the long-term root
	DailyDir   string // short-term daily/ ("" when there is none)
	ArchiveDir string // short-term daily/_archive/
	RollupDir  string // short-term rollups/
	// GitUser locates the user's git configuration: its global excludes
	// count in the history, as in git. Zero: only the repository's rules.
	GitUser gitrepo.UserDirs
	// NoteBytes bounds every note read: the project's limits.note_bytes
	// (0: safefs.DefaultNoteBytes). IngestBytes bounds the files its
	// history versions: limits.ingest_bytes (0: the default).
	NoteBytes, IngestBytes int64
}

// New opens the long-term memory of the project at root.
func New(root string) *Store {
	l := project.Layout{Root: root}
	return &Store{
		Project: root, Dir: l.LongDir(), DailyDir: l.DailyDir(), ArchiveDir: l.ArchiveDir(),
		RollupDir: filepath.Join(l.ShortDir(), "rollups"),
	}
}

// Path joins a slash path relative to the long-term root.
func (s *Store) Path(rel string) string { return filepath.Join(s.Dir, filepath.FromSlash(rel)) }

// ErrInactive says the scaffold is not there.
var ErrInactive = errors.New("long-term memory is not set up for this project")

// requireScaffold fails unless the long-term root exists.
func (s *Store) requireScaffold() error {
	fi, err := os.Stat(s.Dir)
	if err != nil || !fi.IsDir() {
		return hint.Wrap(fmt.Errorf("%w (%s)", ErrInactive, s.Dir), "run `memhook long on` (or /cerebro:memory_long_active on) first")
	}
	return nil
}

// WithLock serialises every writer of this long-term memory (memhook
// forget's too). One lock for the whole store keeps log.md, index.md and
// pages consistent with each other, and its file lives in a hidden folder
// so the vault stays clean.
func (s *Store) WithLock(fn func() error) error {
	return atomicfile.WithLock(filepath.Join(s.Dir, stateDir, lockName), fn)
}

// logLocked appends "- YYYY-MM-DD HH:MM · action · details" to log.md; the
// caller holds the lock.
func (s *Store) logLocked(now time.Time, action, details string) error {
	details = strings.Join(strings.Fields(details), " ")
	// log.md is a page too: a [[link]] quoted in it (a fact's evidence, a
	// value) must not become a link of the log, so it goes in a code span.
	if strings.Contains(details, "[[") {
		if strings.Contains(details, "`") {
			details = strings.ReplaceAll(details, "[[", "[ [")
		} else {
			details = "`" + details + "`"
		}
	}
	line := fmt.Sprintf("- %s · %s · %s\n", now.Format(stampLayout), action, details)
	p := s.Path(LogFile)
	if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
		if err := atomicfile.Write(p, logTemplate(), 0o644); err != nil {
			return fmt.Errorf("create log.md: %w", err)
		}
	}
	if err := atomicfile.AppendUnlocked(p, []byte(line), 0o644); err != nil {
		return fmt.Errorf("append log.md: %w", err)
	}
	return nil
}

// Log appends one line to log.md under the store's lock.
func (s *Store) Log(now time.Time, action, details string) error {
	return s.WithLock(func() error { return s.logLocked(now, action, details) })
}

// pageError is a PAGE argument that does not name a page inside the
// long-term root.
func pageError(page, why string) error {
	return hint.Wrap(fmt.Errorf("page %q: %s", page, why), "give a .md path relative to .claude/memory_long, e.g. wiki/Решения.md")
}

// PagePath checks a PAGE argument (slash or OS separators, relative to the
// long-term root) and returns its clean slash form and absolute path. It
// refuses absolute paths, escapes with "..", hidden folders, raw/ (sources
// are immutable), non-Markdown names and symbolic links leading out.
func (s *Store) PagePath(page string) (string, string, error) {
	p := strings.TrimSpace(filepath.ToSlash(page))
	if p == "" {
		return "", "", pageError(page, "empty")
	}
	if filepath.IsAbs(page) || strings.HasPrefix(p, "/") || filepath.VolumeName(page) != "" {
		return "", "", pageError(page, "absolute paths are refused")
	}
	clean := path.Clean(p)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", "", pageError(page, "outside the long-term root")
	}
	for _, part := range strings.Split(clean, "/") {
		if strings.HasPrefix(part, ".") {
			return "", "", pageError(page, "hidden files and folders are refused")
		}
	}
	if clean == RawDir || strings.HasPrefix(clean, RawDir+"/") {
		return "", "", pageError(page, "raw/ holds ingested sources and is never edited")
	}
	if !strings.EqualFold(path.Ext(clean), ".md") {
		return "", "", pageError(page, "not a Markdown page (.md)")
	}
	abs := s.Path(clean)
	if err := s.inside(abs); err != nil {
		return "", "", pageError(page, err.Error())
	}
	return clean, abs, nil
}

// inside checks that abs, with every symbolic link in its existing part
// resolved, is still under the long-term root.
func (s *Store) inside(abs string) error {
	root, err := filepath.EvalSymlinks(s.Dir)
	if err != nil {
		return fmt.Errorf("resolve long-term root: %w", err)
	}
	p := abs
	var tail []string
	for {
		r, err := filepath.EvalSymlinks(p)
		if err == nil {
			full := filepath.Join(append([]string{r}, tail...)...)
			if rel, err := filepath.Rel(root, full); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return errors.New("a symbolic link leads outside the long-term root")
			}
			return nil
		}
		parent := filepath.Dir(p)
		if parent == p {
			return nil
		}
		tail = append([]string{filepath.Base(p)}, tail...)
		p = parent
	}
}

// writeIfChanged replaces p with data unless it already holds exactly that;
// it reports whether it wrote.
func (s *Store) writeIfChanged(p string, data []byte) (bool, error) {
	if old, err := safefs.ReadNote(p, s.NoteBytes); err == nil && string(old) == string(data) {
		return false, nil
	}
	if err := atomicfile.Write(p, data, 0o644); err != nil {
		return false, err
	}
	return true, nil
}
