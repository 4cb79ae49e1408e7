package main

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// fixedTemp makes a new folder in the temporary directory whose name has
// the same length on every run. The inject names its files by their
// absolute paths, and those count against the cap: a folder name one
// digit longer (os.MkdirTemp's suffix varies in length) moved what fit,
// and so the figures.
func fixedTemp(prefix string) string {
	for {
		dir := filepath.Join(os.TempDir(), fmt.Sprintf("%s%010d", prefix, rand.Uint32()))
		err := os.Mkdir(dir, 0o700)
		if err == nil {
			return dir
		}
		if !os.IsExist(err) {
			check(err)
		}
	}
}

// copyTree copies the files of src to dst, which must not exist: -out
// keeps what a run replayed elsewhere, at a path of its own length.
func copyTree(src, dst string) {
	check(filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
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
		return nil // a link or a socket: not the run's record
	}))
}
