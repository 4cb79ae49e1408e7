// Package workdir gives the benchmarks that replay sessions a folder of
// their own whose path has the same length on every run. The inject names
// its files by their absolute paths, and those characters count against
// its cap: a folder name one digit longer (os.MkdirTemp's suffix varies in
// length) moved what fit, and so the figures.
//
//	work, err := workdir.Fixed("cerebro-week-")
//	defer os.RemoveAll(work)
//	err = workdir.CopyTree(work, keepDir) // -out keeps a copy elsewhere
package workdir

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// Fixed makes a new folder in the temporary directory named prefix and
// ten digits.
func Fixed(prefix string) (string, error) {
	for {
		dir := filepath.Join(os.TempDir(), fmt.Sprintf("%s%010d", prefix, rand.Uint32()))
		err := os.Mkdir(dir, 0o700)
		if err == nil {
			return dir, nil
		}
		if !os.IsExist(err) {
			return "", fmt.Errorf("make the work folder: %w", err)
		}
	}
}

// CopyTree copies the folders and regular files of src to dst, which
// must not exist; links and sockets are not a run's record and are left.
func CopyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(to, data, 0o644)
		}
		return nil
	})
}
