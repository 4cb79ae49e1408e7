//go:build windows

package rss

import "os"

// PeakKB is not measured on Windows.
func PeakKB(*os.ProcessState) int64 { return 0 }
