package rollup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"golang.org/x/sync/errgroup"
)

// Files names the service files in the desk's private folder.
const (
	DashboardFile = "rollup.md"
	LogFile       = "rollup.log"
	CacheDir      = "cache"
)

// Write stores the dashboard and one cache file per project read, all in
// dir (the folder holding registry.json). The dashboard is replaced
// atomically and durably. Cache files are replaced atomically but without
// fsync (they are rebuilt on every run, and a thousand fsyncs would cost
// seconds), and one whose bytes would not change is left alone. Nothing is
// written anywhere else, least of all inside a project.
func Write(dir string, r *Report) error {
	if err := atomicfile.Write(filepath.Join(dir, DashboardFile), Render(r), 0o644); err != nil {
		return fmt.Errorf("write dashboard: %w", err)
	}
	var all []*Project
	for _, group := range [][]*Project{r.Active, r.Paused, r.Completed, r.hidden} {
		for _, p := range group {
			if p.cacheable {
				all = append(all, p)
			}
		}
	}
	if err := safefs.MkdirAll(filepath.Join(dir, CacheDir)); err != nil {
		return fmt.Errorf("create cache folder: %w", err)
	}
	// File creation dominates a first run; a few writers overlap it.
	errs := make([]error, len(all))
	parallel(len(all), 4, func(i int) { errs[i] = writeCache(dir, all[i]) })
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for _, d := range r.Diagnostics {
		if d.Kind == KindRegistryCorrupt {
			return nil // an unreadable registry lists nobody: keep every cache
		}
	}
	keep := make(map[string]bool, len(all))
	for _, p := range all {
		keep[p.ID+".json"] = true
	}
	return pruneCache(filepath.Join(dir, CacheDir), keep, time.Now())
}

// staleTemp is how old a temp file left by a killed writer must be before
// it is removed: a younger one may belong to a run in progress.
const staleTemp = time.Hour

// pruneCache removes the cache files of projects no longer registered and
// temp files a killed run left behind. Only names cerebro writes there
// are touched (ID.json, .ID.json.tmp-*); a cache is rebuilt from the truth
// on the next run, so nothing of value is lost.
func pruneCache(dir string, keep map[string]bool, now time.Time) error {
	d, err := safefs.OpenDir("", dir, false)
	if err != nil {
		return fmt.Errorf("prune cache: %w", err)
	}
	defer d.Close()
	names, err := safefs.ReadDirNames(dir)
	if err != nil {
		return fmt.Errorf("prune cache: %w", err)
	}
	var errs []error
	for _, n := range names {
		switch {
		case strings.HasPrefix(n, ".") && strings.Contains(n, ".json.tmp-"):
			if fi, err := d.Lstat(n); err != nil || now.Sub(fi.ModTime()) < staleTemp {
				continue
			}
		case strings.HasSuffix(n, ".json") && !keep[n] && safeID().MatchString(strings.TrimSuffix(n, ".json")):
		default:
			continue
		}
		if err := d.Remove(n); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("prune cache %s: %w", n, err))
		}
	}
	return errors.Join(errs...)
}

func writeCache(dir string, p *Project) error {
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return fmt.Errorf("encode cache of %s: %w", p.ID, err)
	}
	data = append(data, '\n')
	path := filepath.Join(dir, CacheDir, p.ID+".json")
	if old, err := safefs.ReadNote(path, safefs.DefaultNoteBytes); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := atomicfile.Replace(path, data, 0o644); err != nil {
		return fmt.Errorf("write cache of %s: %w", p.ID, err)
	}
	return nil
}

// parallel runs fn(0..n-1) on at most workers goroutines.
func parallel(n, workers int, fn func(i int)) {
	// errgroup's limit is the pool: at most workers calls at a time, and Go
	// waits for a free slot, so n may be large.
	var g errgroup.Group
	g.SetLimit(max(1, workers))
	for i := 0; i < n; i++ {
		g.Go(func() error { fn(i); return nil })
	}
	g.Wait()
}

// LogLine is one run in rollup.log.
type LogLine struct {
	At       time.Time     // when the run started (the real clock, not --now)
	Date     string        // the dashboard's date
	Projects int           // registered projects read
	Problems int           // diagnostics
	Duration time.Duration // wall time of collect and write
	WithGit  bool
	Err      string
}

// AppendLog adds one line for a run to dir/rollup.log. The log is the only
// output that carries times and durations, which is why it is kept apart
// from the byte-for-byte reproducible dashboard.
func AppendLog(dir string, l LogLine) error {
	line := fmt.Sprintf("%s date=%s projects=%d problems=%d duration_ms=%d with_git=%t",
		l.At.UTC().Format(time.RFC3339), l.Date, l.Projects, l.Problems, l.Duration.Milliseconds(), l.WithGit)
	if l.Err != "" {
		line += fmt.Sprintf(" error=%q", l.Err)
	}
	if err := atomicfile.Append(filepath.Join(dir, LogFile), []byte(line+"\n"), 0o644); err != nil {
		return fmt.Errorf("append rollup log: %w", err)
	}
	return nil
}
