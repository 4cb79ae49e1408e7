//go:build unix

package hotpath

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"golang.org/x/sys/unix"
)

// runMemhook replaces this process with memhook, so the event costs one
// process and memhook's output and exit are the hook's. The input it
// already read is handed on as stdin through a file removed at once: a
// pipe could not hold a large prompt without a writer left alive.
func runMemhook(memhook string, args, env []string, stdin []byte, sys System) error {
	if stdin != nil {
		// Created exclusively through the safe layer: a link planted in the
		// state dir is never written through.
		name := filepath.Join(sys.TempDir, ".hook-input-"+strconv.Itoa(os.Getpid())+"-"+strconv.FormatInt(time.Now().UnixNano(), 36))
		f, err := safefs.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return runChild(memhook, args, env, stdin, sys)
		}
		safefs.Remove(name)
		_, err = f.Write(stdin)
		if err == nil {
			_, err = f.Seek(0, 0)
		}
		if err == nil {
			err = unix.Dup2(int(f.Fd()), 0)
		}
		if err != nil {
			f.Close()
			return runChild(memhook, args, env, stdin, sys)
		}
	}
	return syscall.Exec(memhook, append([]string{memhook}, args...), env)
}
