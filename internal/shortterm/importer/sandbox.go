package importer

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/shortterm/capture"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// A dry run replays the sessions into a throwaway folder of its own in
// the temporary folder: a sessions dir, a log and one folder per project,
// which its report maps back to the projects they stand for.

// openSandbox makes the dry run's folder and points the replay at it.
func (im *run) openSandbox() error {
	dir, err := os.MkdirTemp(im.o.Temp, "cerebro-import-dry-")
	if err != nil {
		return fmt.Errorf("make the dry run's folder: %w", err)
	}
	im.sandbox = dir
	im.mem.Sessions = filepath.Join(dir, "sessions")
	im.mem.Log = runlog.Open(dir, 0)
	return nil
}

func (im *run) close() {
	if im.sandbox != "" {
		os.RemoveAll(im.sandbox)
	}
}

// copyState gives a dry run the state of a session an earlier import was
// killed in, so that it resumes it as the real run would.
func (im *run) copyState(root, sandboxRoot, id string) {
	from := capture.Store{Root: im.o.Memory.Sessions}.Session(project.ID(root), id)
	to := im.store.Session(project.ID(sandboxRoot), id)
	for _, suffix := range []string{".json", ".cursor.json", ".jsonl"} {
		if data, err := safefs.ReadFile(filepath.Join(from.Dir(), id+suffix), 0); err == nil {
			safefs.MkdirAll(to.Dir())
			safefs.WriteFile(filepath.Join(to.Dir(), id+suffix), data, 0o600)
		}
	}
}

// realRoot maps a sandbox root back to the project it stands for.
func (im *run) realRoot(root string) string {
	if real, ok := im.stands[root]; ok {
		return real
	}
	return root
}
