package atomicfile

import "io/fs"

// Replace is [Write] without the fsyncs, for caches that are rebuilt from
// the truth on the next run: readers still see the old content or the new
// one, never a mix, but after a power cut the file may be empty. It costs a
// rename instead of two disk flushes, which matters when a run replaces a
// thousand small files.
func Replace(path string, data []byte, perm fs.FileMode) error {
	return replace(path, data, perm, false)
}
