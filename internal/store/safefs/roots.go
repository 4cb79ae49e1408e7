package safefs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// registered are the roots besides a project's that a path is confined
// to: the desk ($CEREBRO_HOME) and the state dir, set once by the
// composition root. A path under one of them never resolves outside it,
// through a link in any of its components.
var registered struct {
	sync.RWMutex
	dirs []string
}

// SetRoots registers the folders (the desk, the state dir) every path under
// them is confined to; "" entries are skipped. It replaces what an earlier
// call set.
func SetRoots(dirs ...string) {
	var clean []string
	for _, d := range dirs {
		if d == "" {
			continue
		}
		if abs, err := filepath.Abs(d); err == nil {
			d = abs
		}
		clean = append(clean, filepath.Clean(d))
	}
	registered.Lock()
	registered.dirs = clean
	registered.Unlock()
}

// registeredRoot is the innermost registered root holding path, or "".
func registeredRoot(path string) string {
	if !filepath.IsAbs(path) {
		return ""
	}
	path = filepath.Clean(path)
	registered.RLock()
	defer registered.RUnlock()
	best := ""
	for _, d := range registered.dirs {
		if isWithin(d, path) && len(d) > len(best) {
			best = d
		}
	}
	return best
}

// within reports whether path is root or below it (both clean).
func isWithin(root, path string) bool {
	if path == root {
		return true
	}
	sep := string(filepath.Separator)
	return strings.HasPrefix(path, strings.TrimSuffix(root, sep)+sep)
}

// Rename moves oldpath to newpath, both confined to their root (the same
// one: a rename never carries a file out of its root, nor lands on a link,
// FIFO or directory planted at newpath). Missing parents of newpath are
// made.
func Rename(oldpath, newpath string) error {
	root := RootOf(oldpath)
	if nr := RootOf(newpath); nr != root {
		return fmt.Errorf("rename %s to %s: %w (roots %q and %q)", oldpath, newpath, ErrEscapes, root, nr)
	}
	if root == "" {
		root = commonDir(filepath.Dir(oldpath), filepath.Dir(newpath))
	}
	src, err := OpenDir(root, filepath.Dir(oldpath), false)
	if err != nil {
		return err
	}
	defer src.Close()
	if fi, err := src.Lstat(filepath.Base(oldpath)); err != nil {
		return fmt.Errorf("rename %s: %w", oldpath, err)
	} else if fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("rename %s: %w", oldpath, ErrSymlink)
	}
	dst, err := OpenDir(root, filepath.Dir(newpath), true)
	if err != nil {
		return err
	}
	defer dst.Close()
	if fi, err := dst.Lstat(filepath.Base(newpath)); err == nil {
		if err := checkType(newpath, fi); err != nil {
			return err
		}
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return fmt.Errorf("rename %s: %w", oldpath, err)
	}
	defer r.Close()
	from, err1 := filepath.Rel(root, filepath.Clean(oldpath))
	to, err2 := filepath.Rel(root, filepath.Clean(newpath))
	if err := errors.Join(err1, err2); err != nil {
		return fmt.Errorf("rename %s to %s: %w", oldpath, newpath, err)
	}
	if err := r.Rename(from, to); err != nil {
		return fmt.Errorf("rename %s to %s: %w", oldpath, newpath, rootErr(err, root))
	}
	return nil
}

// commonDir is the deepest folder holding both a and b.
func commonDir(a, b string) string {
	a, b = filepath.Clean(a), filepath.Clean(b)
	for !isWithin(a, b) {
		parent := filepath.Dir(a)
		if parent == a {
			return a
		}
		a = parent
	}
	return a
}

// Remove removes path (a link itself, never its target), confined like
// [OpenFile]; a missing path is not an error.
func Remove(path string) error {
	d, err := OpenDir(RootOf(path), filepath.Dir(path), false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Remove(filepath.Base(path)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	return nil
}

// WriteFile creates or truncates path and writes data, under the rules of
// [OpenFile] (missing parents made, no link followed). It is for small
// state files whose loss costs nothing (a marker); notes use atomicfile.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	f, err := OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", path, err)
	}
	return nil
}

// Chmod changes the mode of the regular file at path, opened under the
// rules of [Open] (a link is refused, never followed to its target); a
// missing path is not an error.
func Chmod(path string, mode fs.FileMode) error {
	f, err := Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Chmod(mode)
}

// Truncate cuts the regular file at path to size, opened under the rules
// of [OpenFile].
func Truncate(path string, size int64) error {
	f, err := OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		return fmt.Errorf("truncate %s: %w", path, err)
	}
	return nil
}
