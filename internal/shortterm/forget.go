package shortterm

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/forget"
	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
)

// ForgetRoot is the short-term memory of the project at root as `memhook
// forget` acts in it: a daily file is appended under its day's lock, so
// the forget rewrites it under the same one; any other file under a lock
// of the forget's own.
func ForgetRoot(root string) forget.Root {
	l := project.Layout{Root: root}
	return forget.Root{Dir: l.ShortDir(), Lock: func(rel string, fn func() error) error {
		if d, ok := strings.CutPrefix(rel, "daily/"); ok && !strings.Contains(d, "/") {
			if day, ok := daily.ParseName(d, time.Local); ok {
				return atomicfile.WithLock(daily.LockPath(l.DailyDir(), day), fn)
			}
		}
		return atomicfile.WithLock(filepath.Join(root, ".claude", ".cerebro", "locks", "forget"), fn)
	}}
}
