package testfile

import "testing"

// FIFO skips on Windows: its file system has no named pipes to plant.
func FIFO(t testing.TB, path string) {
	t.Helper()
	t.Skipf("no FIFOs on Windows (wanted %s)", path)
}
