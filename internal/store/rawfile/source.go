package rawfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// refuse is a source that ingest refuses, with what the person can do (h).
func refuse(file, why, h string) error { return hint.Wrap(fmt.Errorf("ingest %s: %s", file, why), h) }

// OpenSource opens the file a person named for ingest, under the rules the
// project's and the org's ingest share: a symbolic link is refused (the
// file read must be the one named, not wherever a link points), so is
// anything but a regular file (a directory, FIFO or device, opened without
// blocking), an empty file, and a file over limit bytes — before a byte of
// it is copied. The caller closes the file.
func OpenSource(file string, limit int64) (*os.File, fs.FileInfo, error) {
	abs, err := safefs.ArgumentPath(file)
	switch {
	case errors.Is(err, safefs.ErrKeyFile):
		return nil, nil, refuse(file, "is a private key or credentials file; memory never holds one", "ingest documents, not keys")
	case errors.Is(err, safefs.ErrLinkInPath):
		return nil, nil, refuse(file, strings.TrimPrefix(err.Error(), file+" ")+"; refused so that only the file you named is read", "name the file where it really is")
	case err != nil:
		return nil, nil, refuse(file, err.Error(), "")
	}
	li, err := os.Lstat(abs)
	if err != nil {
		return nil, nil, refuse(file, "cannot read it: "+unwrapPathErr(err), "check the path; it is taken relative to the current directory")
	}
	switch {
	case li.Mode()&fs.ModeSymlink != 0:
		target, _ := filepath.EvalSymlinks(abs)
		return nil, nil, refuse(file, fmt.Sprintf("is a symbolic link (to %s); refused so that only the file you named is read", target), "name the file the link points to, if that is what you mean")
	case li.IsDir():
		return nil, nil, refuse(file, "is a directory", "ingest one file at a time")
	case !li.Mode().IsRegular():
		return nil, nil, refuse(file, "is not a regular file (a FIFO, socket or device)", "")
	case li.Size() == 0:
		return nil, nil, refuse(file, "is empty", "")
	case limit > 0 && li.Size() > limit:
		return nil, nil, refuse(file, fmt.Sprintf("holds %d bytes, over the ingest limit of %d", li.Size(), limit), "split it, or raise limits.ingest_bytes in the config")
	}
	d, err := safefs.OpenDir("", filepath.Dir(abs), false)
	if err != nil {
		return nil, nil, refuse(file, "cannot open its folder: "+err.Error(), "")
	}
	defer d.Close()
	f, err := d.OpenFile(filepath.Base(abs), os.O_RDONLY, 0)
	if err != nil {
		return nil, nil, refuse(file, "cannot open it: "+err.Error(), "try again")
	}
	fi, err := f.Stat()
	if err != nil || !os.SameFile(fi, li) || (limit > 0 && fi.Size() > limit) {
		f.Close()
		return nil, nil, refuse(file, "changed while being read", "try again")
	}
	return f, fi, nil
}

// SourceName is the name a source is stored under in raw/, the same for
// both vaults: usable inside a wikilink and on every OS, never hidden.
func SourceName(name string) string {
	r := strings.NewReplacer("|", "-", "#", "-", "^", "-", "[", "(", "]", ")", ":", "-", "\\", "-", "/", "-", "*", "-", "?", "-", "\"", "'", "<", "(", ">", ")")
	name = strings.Map(func(c rune) rune {
		if c < 32 {
			return '-'
		}
		return c
	}, r.Replace(name))
	name = strings.TrimLeft(strings.TrimSpace(name), ".")
	if name == "" || name == path.Ext(name) {
		name = "source" + name
	}
	return name
}

func unwrapPathErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
