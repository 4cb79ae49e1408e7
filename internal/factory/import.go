package factory

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/registry"
	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/shortterm/importer"
)

// ImportRequest is what the person asked `memhook import` for.
type ImportRequest struct {
	From    string // Claude Code's projects folder; "" is its default
	Project string // only this project ("" every one)
	Archive string // the folder for gone projects' memory ("" reports them)
	Since   time.Time
	DryRun  bool
	Claude  bool // the claude distiller where settings choose it
}

// Import runs `memhook import` (importer.Run) with this process's
// short-term memory: each imported project is registered on the desk (the
// command is the person's act of adding it) and its search index brought
// up to date; progress goes to stderr on a terminal.
func (f *Factory) Import(ctx context.Context, req ImportRequest) (*importer.Report, error) {
	from := req.From
	if from == "" {
		// where Claude Code keeps its sessions' transcripts
		from = filepath.Join(config.ClaudeDir(f.Getenv), "projects")
	}
	temp := f.Getenv("TMPDIR")
	if temp == "" {
		temp = "/tmp"
	}
	// its own log beside the hooks': its flushes of sessions months old
	// are not hook timings
	importLog := &runlog.Log{Path: filepath.Join(f.Paths.Logs(), "import.log"), MaxBytes: 1 << 20}
	o := importer.Options{
		From: from, Memory: f.ShortTerm(importLog), Project: req.Project, Since: req.Since,
		DryRun: req.DryRun, Archive: req.Archive, Claude: req.Claude,
		Home: f.Getenv("HOME"), Temp: temp, Desk: f.Paths.Home, Root: f.ProjectRoot, Now: f.Now,
		Record: importer.RecordPath(f.Paths.State),
		Register: func(root string) error {
			_, err := registry.Add(f.Paths.Registry(), root, "", f.Paths.Home, f.ProjectRoot, f.Now())
			if errors.Is(err, registry.ErrDesk) {
				return nil // the desk keeps its own memory, unlisted
			}
			return err
		},
		Index: f.indexProject,
	}
	if f.Terminal {
		o.Progress = f.Err
	}
	rep, err := importer.Run(ctx, o)
	if errors.Is(err, fs.ErrNotExist) && rep == nil {
		return nil, hint.Wrap(err, "Claude Code keeps its transcripts there once it has run a session; --from names another folder")
	}
	return rep, err
}
