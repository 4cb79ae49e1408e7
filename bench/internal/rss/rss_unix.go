//go:build !windows

// Package rss reads a finished child process's peak resident set, for
// the benchmarks that hold memory to a bound:
//
//	err := cmd.Run()
//	kb := rss.PeakKB(cmd.ProcessState)
package rss

import (
	"os"
	"runtime"
	"syscall"
)

// PeakKB is the child's peak resident set in KB (macOS reports bytes).
func PeakKB(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) / 1024
	}
	return int64(ru.Maxrss)
}
