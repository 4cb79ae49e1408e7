// Package runlog is memhook's own log: one JSON line per hook run or
// problem, appended under a lock to a file that is rotated (to .1) once it
// passes a size cap, so it never grows without bound. Hooks print nothing
// to the user on failure; this log is where their errors go, and where
// `memhook doctor` reads hook timings from.
package runlog

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Entry is one line of the log.
type Entry struct {
	Time    time.Time `json:"ts"`
	Event   string    `json:"event"`             // hook event or command
	Session string    `json:"session,omitempty"` // Claude Code session id
	Project string    `json:"project,omitempty"`
	MS      float64   `json:"ms"`    // wall time of the run
	Level   string    `json:"level"` // info, warn, error
	Message string    `json:"message,omitempty"`
}

// Log appends to one file.
type Log struct {
	Path     string
	MaxBytes int64
}

// Open returns the log in dir (hooks.log), capped at maxBytes.
func Open(dir string, maxBytes int64) *Log {
	if maxBytes <= 0 {
		maxBytes = 1 << 20
	}
	return &Log{Path: filepath.Join(dir, "hooks.log"), MaxBytes: maxBytes}
}

// Write appends e. Logging must never break a hook, so failures are
// returned for tests and otherwise ignored by callers.
func (l *Log) Write(e Entry) error {
	if e.Level == "" {
		e.Level = "info"
	}
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("encode log entry: %w", err)
	}
	return atomicfile.WithLockTimeout(l.Path, 500*time.Millisecond, func() error {
		if fi, err := safefs.Lstat(l.Path); err == nil && fi.Size()+int64(len(line)) > l.MaxBytes {
			if err := safefs.Rename(l.Path, l.Path+".1"); err != nil {
				return fmt.Errorf("rotate %s: %w", l.Path, err)
			}
		}
		// A log line is not worth an fsync in a hook's few milliseconds.
		return atomicfile.AppendUnsynced(l.Path, append(line, '\n'), 0o600)
	})
}

// maxLine bounds one line Read assembles; a longer one is skipped.
const maxLine = 1 << 20

// Read returns the entries of the current and the rotated file, oldest
// first. Lines that do not parse (a torn write after a crash) or are over
// maxLine are skipped; a log that is a link is refused.
func (l *Log) Read() ([]Entry, error) {
	var out []Entry
	for _, p := range []string{l.Path + ".1", l.Path} {
		f, err := safefs.Open(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return out, fmt.Errorf("read %s: %w", p, err)
		}
		br := bufio.NewReaderSize(f, 64<<10)
		for {
			line, _, err := safefs.ReadLine(br, maxLine)
			if err != nil {
				break // the end, or a torn last line
			}
			var e Entry
			if line != nil && json.Unmarshal(line, &e) == nil {
				out = append(out, e)
			}
		}
		f.Close()
	}
	return out, nil
}
