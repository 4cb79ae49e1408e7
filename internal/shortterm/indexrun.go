package shortterm

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// IndexBudget bounds the background run SessionStart starts: past it the
// run stops between files, keeping what it read, and the next
// SessionStart's run goes on from there.
const IndexBudget = 2 * time.Minute

// indexWindow is how long a started background index holds the
// project's slot: one that died without releasing it keeps the next out
// no longer than this.
const indexWindow = IndexBudget + time.Minute

// indexSlot is the project's file naming when its background index
// started; it exists only while one runs.
func (m *Memory) indexSlot(projectID string) string {
	return filepath.Join(m.Sessions, projectID, "index-run")
}

// indexBehind starts `memhook index --background` for the project, so its
// search index is brought up to date off the hook's clock (the flush
// indexes only the file it wrote). One run per project at a time: a run
// holding the slot, started less than indexWindow ago, keeps the next
// hook from starting another, as the claude distiller's background flush
// does per session. A replay, or a process with no way to start memhook,
// starts nothing; a project without short- or long-term memory neither.
func (m *Memory) indexBehind(sc *scope) error {
	if m.Spawn == nil || m.IndexProject == nil || sc.asOf != nil || !hasMemory(sc.layout) {
		return nil
	}
	slot := m.indexSlot(sc.id)
	start := false
	err := atomicfile.WithLockTimeout(slot, 200*time.Millisecond, func() error {
		// a start time further ahead than the window is a clock's jump, no run's
		if at, ok := readSlot(slot); ok && m.Now().Sub(at) < indexWindow && at.Sub(m.Now()) < indexWindow {
			return nil
		}
		start = true
		return atomicfile.Write(slot, []byte(m.Now().UTC().Format(time.RFC3339Nano)), 0o644)
	})
	if err != nil || !start {
		return err
	}
	pid, err := m.Spawn(sc.layout.Root, []string{"index", "--background", "--project", sc.layout.Root})
	if err != nil {
		m.releaseIndexSlot(sc.id)
		return fmt.Errorf("start background index: %w", err)
	}
	m.Log.Write(runlog.Entry{Time: m.Now(), Event: "index", Level: "info",
		Message: "started background index pid " + strconv.Itoa(pid)})
	return nil
}

// IndexRun is the background run SessionStart started in the project at
// root: its search index brought up to date within [IndexBudget], what
// was read kept when the budget ends, and the project's slot released.
func (m *Memory) IndexRun(ctx context.Context, root string) error {
	defer m.releaseIndexSlot(project.ID(root))
	ctx, cancel := context.WithTimeout(ctx, IndexBudget)
	defer cancel()
	if m.IndexProject == nil {
		return errors.New("background index: no index to update")
	}
	if err := m.IndexProject(ctx, root); err != nil {
		m.Log.Write(runlog.Entry{Time: m.Now(), Event: "index", Level: "warn",
			Message: fmt.Sprintf("background index of %s: %v", root, err)})
		return fmt.Errorf("background index: %w", err)
	}
	return nil
}

func (m *Memory) releaseIndexSlot(projectID string) {
	slot := m.indexSlot(projectID)
	atomicfile.WithLockTimeout(slot, time.Second, func() error {
		err := safefs.Remove(slot)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	})
}

func readSlot(path string) (time.Time, bool) {
	data, err := safefs.ReadFile(path, 64)
	if err != nil {
		return time.Time{}, false
	}
	at, err := time.Parse(time.RFC3339Nano, string(data))
	return at, err == nil
}

// hasMemory reports whether the project keeps short- or long-term memory
// (one stat each): elsewhere a background index has nothing of its own
// to read.
func hasMemory(l project.Layout) bool {
	for _, d := range []string{l.ShortDir(), l.LongDir()} {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return true
		}
	}
	return false
}
