//go:build unix

package safefs

import "syscall"

// oNonblock makes opening a FIFO return at once instead of waiting for a
// writer; on a regular file it has no effect.
const oNonblock = syscall.O_NONBLOCK
