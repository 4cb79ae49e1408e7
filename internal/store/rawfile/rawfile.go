// Package rawfile keeps the raw/ folder of a memory vault immutable: an
// ingested source is stored under a name that no different file holds, the
// same content ingested again is found rather than copied twice, and
// nothing there is ever replaced. Both the project's long-term memory
// (internal/longterm) and the org vault (internal/org/orgvault) store their
// sources through [Place]:
//
//	rel, existed, err := rawfile.Place(root, name, size, sum, largeBytes, put)
//
// Files above a size threshold go to raw/_large/ (which a vault may keep
// out of git or sync). Each stored file gets a source page named after it,
// so a name is unique across raw/ and raw/_large/ together.
package rawfile

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Where sources are stored, relative to the vault root.
const (
	Dir      = "raw"
	LargeDir = "raw/_large"
)

// maxNames bounds the numbered names tried for one source name.
const maxNames = 1000

// DirFor is the folder a source of size bytes goes to: [LargeDir] above
// largeBytes (when it is positive), else [Dir].
func DirFor(size, largeBytes int64) string {
	if largeBytes > 0 && size > largeBytes {
		return LargeDir
	}
	return Dir
}

// hashStored returns the SHA-256 of rel, a file already in the vault at
// root. It is opened through safefs, confined to root: a name swapped for
// a link or a FIFO after Place's Lstat is refused, never followed or
// waited on.
func hashStored(root, rel string) ([]byte, error) {
	full := filepath.Join(root, filepath.FromSlash(rel))
	d, err := safefs.OpenDir(root, filepath.Dir(full), false)
	if err != nil {
		return nil, fmt.Errorf("hash %s: %w", rel, err)
	}
	defer d.Close()
	f, err := d.OpenFile(filepath.Base(full), os.O_RDONLY, 0)
	if err != nil {
		return nil, fmt.Errorf("hash %s: %w", rel, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, fmt.Errorf("hash %s: %w", rel, err)
	}
	return h.Sum(nil), nil
}

// Place finds where a source called name (size bytes, SHA-256 sum) goes:
// in [DirFor] its size, under name itself, else "stem-2.ext",
// "stem-3.ext"... A name used in the other folder counts as taken. It
// returns the slash path relative to root and whether a regular file with
// that content was already there. When the content is new, put is called
// with the absolute path to store it at (which does not exist yet).
func Place(root, name string, size int64, sum []byte, largeBytes int64, put func(abs string) error) (string, bool, error) {
	dir, other := Dir, LargeDir
	if DirFor(size, largeBytes) == LargeDir {
		dir, other = LargeDir, Dir
	}
	abs := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	ext := path.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for n := 1; n < maxNames; n++ {
		cand := name
		if n > 1 {
			cand = fmt.Sprintf("%s-%d%s", stem, n, ext)
		}
		if _, err := os.Lstat(abs(path.Join(other, cand))); err == nil {
			continue
		}
		rel := path.Join(dir, cand)
		// Lstat: a link in raw/ is never followed, so it only takes a name.
		fi, err := os.Lstat(abs(rel))
		if errors.Is(err, fs.ErrNotExist) {
			if err := put(abs(rel)); err != nil {
				return "", false, fmt.Errorf("store %s: %w", rel, err)
			}
			return rel, false, nil
		}
		if err != nil {
			return "", false, fmt.Errorf("read %s: %w", rel, err)
		}
		if fi.Mode().IsRegular() && fi.Size() == size {
			old, err := hashStored(root, rel)
			if err != nil {
				return "", false, err
			}
			if bytes.Equal(old, sum) {
				return rel, true, nil
			}
		}
	}
	return "", false, fmt.Errorf("too many files named %s in %s", name, dir)
}
