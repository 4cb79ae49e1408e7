//go:build unix

package testfile

import (
	"syscall"
	"testing"
)

// FIFO makes a named pipe at path, the planted file hostile-input tests
// need; on Windows, which has no FIFOs in the file system, it skips.
func FIFO(t testing.TB, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatalf("make a FIFO at %s: %v", path, err)
	}
}
