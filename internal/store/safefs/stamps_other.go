//go:build !unix

package safefs

import (
	"fmt"
	"os"
	"path/filepath"
)

func lstatAll(dir string, rels []string, fn func(i int, s Stamp, err error) bool) error {
	if fi, err := os.Stat(dir); err != nil {
		return fmt.Errorf("open directory %s: %w", dir, err)
	} else if !fi.IsDir() {
		return fmt.Errorf("open directory %s: not a directory", dir)
	}
	for i, rel := range rels {
		if escapes(rel) {
			if !fn(i, Stamp{}, fmt.Errorf("stat %s in %s: %w", rel, dir, ErrEscapes)) {
				return nil
			}
			continue
		}
		fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel)))
		var s Stamp
		if err == nil {
			s = Stamp{ModTime: fi.ModTime().UnixNano(), Size: fi.Size(), IsDir: fi.IsDir(), Regular: fi.Mode().IsRegular()}
		}
		if !fn(i, s, err) {
			return nil
		}
	}
	return nil
}
