package atomicfile

import (
	"io/fs"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// The unsynced variants skip fsync. They keep the guarantees that matter
// against a killed process (a rename is atomic, an append is one write),
// but not against a power cut, and cost microseconds instead of the
// milliseconds of an fsync. Use them only for data that can be rebuilt or
// lost without harm: hook logs, counters, a hot-path journal whose every
// line also reaches the transcript.

// AppendUnsynced is [AppendUnlocked] without the fsync; the caller holds
// the lock of path when appends may race.
func AppendUnsynced(path string, data []byte, perm fs.FileMode) error {
	return safefs.Append(path, data, perm, false)
}

// ReplaceUnsynced is [Write] without the fsyncs: readers see the old or
// the new content, never a mix, as long as the machine stays up.
func ReplaceUnsynced(path string, data []byte, perm fs.FileMode) error {
	return replace(path, data, perm, false)
}
