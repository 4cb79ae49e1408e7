//go:build unix

package safefs

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

func lstatAll(dir string, rels []string, fn func(i int, s Stamp, err error) bool) error {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("open directory %s: %w", dir, &os.PathError{Op: "open", Path: dir, Err: err})
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	for i, rel := range rels {
		if escapes(rel) {
			if !fn(i, Stamp{}, fmt.Errorf("stat %s in %s: %w", rel, dir, ErrEscapes)) {
				return nil
			}
			continue
		}
		if err := unix.Fstatat(fd, rel, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			if !fn(i, Stamp{}, &os.PathError{Op: "lstat", Path: rel, Err: err}) {
				return nil
			}
			continue
		}
		mode := st.Mode & unix.S_IFMT
		s := Stamp{
			ModTime: st.Mtim.Sec*1e9 + st.Mtim.Nsec,
			Size:    st.Size,
			IsDir:   mode == unix.S_IFDIR,
			Regular: mode == unix.S_IFREG,
		}
		if !fn(i, s, nil) {
			return nil
		}
	}
	return nil
}
