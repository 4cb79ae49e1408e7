package safefs

import (
	"path/filepath"
	"strings"
)

// Stamp is what a stat tells of a file or folder, enough to see that it
// changed: its modification time (Unix nanoseconds), its size, its type.
type Stamp struct {
	ModTime int64
	Size    int64
	IsDir   bool
	Regular bool
}

// LstatAll describes each of rels (slash-separated, relative to dir)
// without following its last component, as os.Lstat of the joined path
// does, and calls fn with each in order; fn returns false to stop. The
// folder is opened once and every name is looked up from it (fstatat),
// rather than walking dir's whole path again for each: a check of a
// whole desk's memory stats a few thousand files, and the walk was most
// of each stat. A name that is absolute or leaves dir is refused (its
// error is ErrEscapes); it reads no file.
func LstatAll(dir string, rels []string, fn func(i int, s Stamp, err error) bool) error {
	return lstatAll(dir, rels, fn)
}

// escapes reports whether rel, relative to a folder, leaves it.
func escapes(rel string) bool {
	rel = filepath.FromSlash(rel)
	return filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) ||
		strings.Contains(rel, string(filepath.Separator)+".."+string(filepath.Separator)) || strings.HasSuffix(rel, string(filepath.Separator)+"..")
}
