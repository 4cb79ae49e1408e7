//go:build !linux

package cli

import (
	"os"
	"testing"
)

// openPTY: pseudo-terminals are opened only on Linux in these tests.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	t.Skip("pseudo-terminal tests run on Linux")
	return nil, nil
}
