package shortterm

import (
	"time"

	"github.com/cerebro-mem/cerebro/internal/shortterm/capture"
)

// The session's journal, state and counters are package capture's, so that
// the small hot-path binary links them without the rest of this package;
// these names keep them where the rest of short-term memory speaks of them.
type (
	Store      = capture.Store
	Session    = capture.Session
	State      = capture.State
	Intent     = capture.Intent
	Entry      = capture.Entry
	Meta       = capture.Meta
	Thresholds = capture.Thresholds
	Carry      = capture.Carry
)

// LockTimeout and ScanChunk: see package capture.
const (
	LockTimeout = capture.LockTimeout
	ScanChunk   = capture.ScanChunk
)

// MessageKey: see [capture.MessageKey].
func MessageKey(role, text string) string { return capture.MessageKey(role, text) }

// CleanStaleTemps: see [capture.CleanStaleTemps].
func CleanStaleTemps(root string, now time.Time) (int, error) {
	return capture.CleanStaleTemps(root, now)
}
