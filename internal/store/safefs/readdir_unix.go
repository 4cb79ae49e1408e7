//go:build unix

package safefs

import (
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// readDirTypes lists the open directory f (at path) with each entry's type
// from the listing: it reads a duplicate of f's descriptor as a plain
// file, which takes the type from the directory entry instead of an lstat
// of each name.
func readDirTypes(f *os.File, path string) ([]fs.DirEntry, error) {
	fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return f.ReadDir(-1)
	}
	plain := os.NewFile(uintptr(fd), path)
	defer plain.Close()
	return plain.ReadDir(-1)
}
