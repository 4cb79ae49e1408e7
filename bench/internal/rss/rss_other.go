//go:build windows

package main

import "os"

// peakRSSKB is not measured on Windows.
func peakRSSKB(*os.ProcessState) int64 { return 0 }
