package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// fixedTemp makes a new folder in the temporary directory whose name has
// the same length on every run: the inject names its files by their
// absolute paths, and those count against the cap.
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
