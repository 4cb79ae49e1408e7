package rollup

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/atomicfile"
)

// Files names the service files in the desk's private folder.
const (
	DashboardFile = "rollup.md"
	LogFile       = "rollup.log"
	CacheDir      = "cache"
)

// Write stores the dashboard and one cache file per project read, all in
// dir (the folder holding registry.json). Every file is replaced
// atomically; a cache file whose bytes would not change is left alone, so
// a daily run over a thousand quiet projects costs reads, not fsyncs.
// Nothing is written anywhere else, least of all inside a project.
func Write(dir string, r *Report) error {
	if err := atomicfile.Write(filepath.Join(dir, DashboardFile), Render(r), 0o644); err != nil {
		return fmt.Errorf("write dashboard: %w", err)
	}
	for _, group := range [][]*Project{r.Active, r.Paused, r.Completed, r.hidden} {
		for _, p := range group {
			if !p.cacheable {
				continue
			}
			data, err := json.MarshalIndent(p, "", "  ")
			if err != nil {
				return fmt.Errorf("encode cache of %s: %w", p.ID, err)
			}
			data = append(data, '\n')
			path := filepath.Join(dir, CacheDir, p.ID+".json")
			if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
				continue
			}
			if err := atomicfile.Write(path, data, 0o644); err != nil {
				return fmt.Errorf("write cache of %s: %w", p.ID, err)
			}
		}
	}
	return nil
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
