package atomicfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// Replace is [Write] without the fsyncs, for caches that are rebuilt from
// the truth on the next run: readers still see the old content or the new
// one, never a mix, but after a power cut the file may be empty. It costs a
// rename instead of two disk flushes, which matters when a run replaces a
// thousand small files.
func Replace(path string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create directory %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("create temp file in %s: %w", dir, err)
	}
	name := tmp.Name()
	_, werr := tmp.Write(data)
	if werr == nil && runtime.GOOS != "windows" {
		werr = tmp.Chmod(perm)
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(name, path)
	}
	if werr != nil {
		os.Remove(name)
		return fmt.Errorf("replace %s: %w", path, werr)
	}
	return nil
}
