package atomicfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// The unsynced variants skip fsync. They keep the guarantees that matter
// against a killed process (a rename is atomic, an append is one write),
// but not against a power cut, and cost microseconds instead of the
// milliseconds of an fsync. Use them only for data that can be rebuilt or
// lost without harm: hook logs, counters, a hot-path journal whose every
// line also reaches the transcript.

// AppendUnsynced is [AppendUnlocked] without the fsync; the caller holds
// the lock of path when appends may race.
func AppendUnsynced(path string, data []byte, perm fs.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, perm)
	if os.IsNotExist(err) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("create directory for %s: %w", path, err)
		}
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, perm)
	}
	if err != nil {
		return fmt.Errorf("open %s for append: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("append to %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", path, err)
	}
	return nil
}

// ReplaceUnsynced is [Write] without the fsyncs: readers see the old or
// the new content, never a mix, as long as the machine stays up.
func ReplaceUnsynced(path string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if os.IsNotExist(err) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("create directory %s: %w", dir, err)
		}
		tmp, err = os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	}
	if err != nil {
		return fmt.Errorf("create temp file in %s: %w", dir, err)
	}
	name := tmp.Name()
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(name)
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		os.Remove(name)
		return fmt.Errorf("chmod %s: %w", name, err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return fmt.Errorf("close %s: %w", name, err)
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return fmt.Errorf("rename %s to %s: %w", name, path, err)
	}
	return nil
}
