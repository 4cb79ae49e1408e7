package atomicfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// WriteFrom is [Write] for content that arrives as a stream (a large file
// being copied): it never holds the whole content in memory. A reader
// error leaves path untouched.
func WriteFrom(path string, r io.Reader, perm fs.FileMode) (int64, error) {
	return replaceFrom(path, r, perm, true)
}

// replaceFrom copies r to a unique temporary file beside path and renames
// it over path; durable syncs the file and the directory on the way.
func replaceFrom(path string, r io.Reader, perm fs.FileMode, durable bool) (int64, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, fmt.Errorf("create directory %s: %w", dir, err)
	}
	// A unique temp name: two processes may replace the same file at once.
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return 0, fmt.Errorf("create temp file in %s: %w", dir, err)
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(name)
		}
	}()
	n, err := io.Copy(tmp, r)
	if err != nil {
		return n, fmt.Errorf("write %s: %w", name, err)
	}
	if err := tmp.Chmod(perm); err != nil && runtime.GOOS != "windows" {
		return n, fmt.Errorf("chmod %s: %w", name, err)
	}
	if durable {
		if err := tmp.Sync(); err != nil {
			return n, fmt.Errorf("sync %s: %w", name, err)
		}
	}
	if err := tmp.Close(); err != nil {
		return n, fmt.Errorf("close %s: %w", name, err)
	}
	if err := os.Rename(name, path); err != nil {
		return n, fmt.Errorf("rename %s to %s: %w", name, path, err)
	}
	ok = true
	if durable {
		syncDir(dir)
	}
	return n, nil
}
