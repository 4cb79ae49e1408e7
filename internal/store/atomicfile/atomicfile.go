// Package atomicfile writes files so that a crash at any point leaves either
// the old content or the new one, never a mix, and appends under an
// inter-process lock so that concurrent hooks never interleave lines.
//
// Use [Write] to replace a file, [Append] to add to one, and [WithLock] to run
// a read-modify-write of several files as one critical section.
package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/gofrs/flock"
)

// Write replaces path with data: a temporary file in the same directory is
// written, synced and renamed over path, then the directory is synced so the
// rename itself survives a power cut. Missing parent directories are created.
func Write(path string, data []byte, perm fs.FileMode) error {
	return replace(path, data, perm, true)
}

// replace writes data to a unique temporary file beside path and renames it
// over path; durable syncs the file and the directory on the way.
func replace(path string, data []byte, perm fs.FileMode, durable bool) error {
	_, err := replaceFrom(path, bytes.NewReader(data), perm, durable)
	return err
}

// Append adds data to the end of path under the path's lock, creating the
// file (and its directory) when missing, and syncs before returning. A
// writer that also rewrites the file must take the same lock via [WithLock].
func Append(path string, data []byte, perm fs.FileMode) error {
	return WithLock(path, func() error { return AppendUnlocked(path, data, perm) })
}

// AppendUnlocked is [Append] for callers already holding the lock of path.
// Like every write of this package it goes through [safefs]: a symlink,
// FIFO, device or directory at path is refused, never written through.
func AppendUnlocked(path string, data []byte, perm fs.FileMode) error {
	return safefs.Append(path, data, perm, true)
}

// LockTimeout bounds how long [WithLock] waits for another process.
const LockTimeout = 10 * time.Second

// ErrLockTimeout is returned when the lock could not be taken in time.
var ErrLockTimeout = errors.New("lock held by another process")

// WithLock runs fn while holding an exclusive inter-process lock tied to
// path (a sibling file path+".lock"). The lock file is left in place: removing
// it would race with a process about to take it.
func WithLock(path string, fn func() error) error {
	return WithLockTimeout(path, LockTimeout, fn)
}

// WithLockTimeout is [WithLock] with an explicit wait bound, for hooks that
// must give up quickly rather than hold the session.
func WithLockTimeout(path string, timeout time.Duration, fn func() error) error {
	if err := safefs.MkdirAll(filepath.Dir(path)); err != nil {
		return fmt.Errorf("create directory for lock %s: %w", path, err)
	}
	// The lock file is opened through safefs first: a planted link or FIFO
	// named like it is refused instead of being created or opened by flock.
	lf, err := safefs.OpenFile(path+".lock", os.O_RDONLY|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("lock %s: %w", path, err)
	}
	lf.Close()
	l := flock.New(path + ".lock")
	deadline := time.Now().Add(timeout)
	for {
		ok, err := l.TryLock()
		if err != nil {
			return fmt.Errorf("lock %s: %w", path, err)
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("lock %s: %w", path, ErrLockTimeout)
		}
		time.Sleep(5 * time.Millisecond)
	}
	defer l.Unlock()
	return fn()
}
