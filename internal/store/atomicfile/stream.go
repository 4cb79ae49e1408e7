package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// WriteFrom is [Write] for content that arrives as a stream (a large file
// being copied): it never holds the whole content in memory. A reader
// error leaves path untouched.
func WriteFrom(path string, r io.Reader, perm fs.FileMode) (int64, error) {
	return replaceFrom(path, r, perm, true)
}

// replaceFrom copies r to a unique temporary file beside path and renames
// it over path; durable syncs the file and the directory on the way. The
// directory is opened once through [safefs] (confined to the project or
// desk root) and the temp file and the rename happen in it, so a planted
// link at path or above it is never written through.
func replaceFrom(path string, r io.Reader, perm fs.FileMode, durable bool) (int64, error) {
	d, err := safefs.OpenDir(safefs.RootOf(path), filepath.Dir(path), true)
	if err != nil {
		return 0, err
	}
	defer d.Close()
	base := filepath.Base(path)
	if err := checkTarget(d, path, base); err != nil {
		return 0, err
	}
	// A unique temp name: two processes may replace the same file at once.
	var tmp *os.File
	var name string
	for i := 0; ; i++ {
		name = "." + base + ".tmp-" + strconv.FormatUint(uint64(rand.Uint32()), 10)
		tmp, err = d.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil || !errors.Is(err, fs.ErrExist) || i > 10 {
			break
		}
	}
	if err != nil {
		return 0, fmt.Errorf("create temp file in %s: %w", d.Path(), err)
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			d.Remove(name)
		}
	}()
	n, err := io.Copy(tmp, r)
	if err != nil {
		return n, fmt.Errorf("write %s: %w", filepath.Join(d.Path(), name), err)
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
	if err := d.Rename(name, base); err != nil {
		return n, err
	}
	ok = true
	if durable && runtime.GOOS != "windows" {
		d.Sync()
	}
	return n, nil
}

// checkTarget refuses to replace anything but a regular file (or nothing):
// a link, FIFO or directory where a note should be is a planted one.
func checkTarget(d *safefs.Dir, path, base string) error {
	fi, err := d.Lstat(base)
	if err != nil {
		return nil // missing (or unreadable: the rename reports it)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("replace %s: %w", path, safefs.CheckFile(path))
	}
	return nil
}
