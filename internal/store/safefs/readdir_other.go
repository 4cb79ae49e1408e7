//go:build !unix

package safefs

import (
	"io/fs"
	"os"
)

// readDirTypes lists the open directory f.
func readDirTypes(f *os.File, _ string) ([]fs.DirEntry, error) { return f.ReadDir(-1) }
