//go:build linux

package safefs

import (
	"fmt"
	"os"
	"syscall"
)

// pseudoFS are the kernel's file systems whose "regular files" are
// interfaces, not content: /proc/kmsg stats as an empty regular file and
// blocks a reader until the kernel logs something, /sys files change
// under the reader. No note, transcript or source of cerebro lives there.
var pseudoFS = map[int64]string{
	0x9fa0:     "procfs",
	0x62656572: "sysfs",
	0x64626720: "debugfs",
	0x74726163: "tracefs",
	0x73636673: "securityfs",
	0x27e0eb:   "cgroupfs",
	0x63677270: "cgroup2fs",
	0xcafe4a11: "bpffs",
	0x62656570: "configfs",
	0xde5e81e4: "efivarfs",
	0x6165676c: "pstorefs",
	0x65735543: "fusectl",
}

// checkFS refuses a file on one of the kernel's pseudo file systems.
func checkFS(f *os.File, path string) error {
	var st syscall.Statfs_t
	if err := syscall.Fstatfs(int(f.Fd()), &st); err != nil {
		return nil // cannot tell: the type checks stand
	}
	if name, ok := pseudoFS[int64(st.Type)]; ok {
		return fmt.Errorf("%s is on %s, a kernel interface and not a file: %w", path, name, ErrNotRegular)
	}
	return nil
}
