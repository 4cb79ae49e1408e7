package search

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// What tells the catalog that an index is unchanged: its folders' and
// recent files' times, stamped compactly, and each index file's key.

// freshness is what an index's last update saw: its folders' and its most
// recent files' modification times (and sizes), relative to the root.
type freshness []stamp

// stamp is one folder (size −1) or file as an update saw it.
type stamp struct {
	rel         string
	mtime, size int64
}

// holds reports whether the memory under root still looks as the index
// saw it: every folder and recent file unchanged. No folder recorded (no
// complete update yet) does not hold. A file edited in place that is not
// among the recent ones goes unseen, as in [Index.Refresh] between its
// rotations; the index is caught up when a search opens it.
func (f freshness) holds(root string) bool {
	dirs := 0
	for _, s := range f {
		if s.size < 0 {
			dirs++
		}
	}
	if dirs == 0 {
		return false
	}
	rels := make([]string, len(f))
	for i, s := range f {
		rels[i] = s.rel
	}
	// every name from one open of the root: a search checks every index
	// of the desk so, and walking the root's path again for each name
	// was most of what each stat cost
	same := true
	err := safefs.LstatAll(root, rels, func(i int, st safefs.Stamp, err error) bool {
		s := f[i]
		same = err == nil && st.ModTime == s.mtime && st.IsDir == (s.size < 0) && (s.size < 0 || st.Size == s.size)
		return same
	})
	return err == nil && same
}

// encode packs f as the catalog stores it: read back for every index on
// every search, so not as JSON, whose decoding cost more than the rest of
// the catalog's answer.
func (f freshness) encode() []byte {
	b := binary.AppendUvarint(nil, uint64(len(f)))
	for _, s := range f {
		b = binary.AppendUvarint(b, uint64(len(s.rel)))
		b = append(b, s.rel...)
		b = binary.AppendVarint(b, s.mtime)
		b = binary.AppendVarint(b, s.size)
	}
	return b
}

func decodeFreshness(b []byte) (freshness, bool) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, false
	}
	b = b[k:]
	f := make(freshness, 0, n)
	for i := uint64(0); i < n; i++ {
		l, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < l {
			return nil, false
		}
		s := stamp{rel: string(b[k : k+int(l)])}
		b = b[k+int(l):]
		if s.mtime, k = binary.Varint(b); k <= 0 {
			return nil, false
		}
		b = b[k:]
		if s.size, k = binary.Varint(b); k <= 0 {
			return nil, false
		}
		b = b[k:]
		f = append(f, s)
	}
	return f, len(b) == 0
}

// fileKey identifies the state of an index file by its size and time and
// those of its write-ahead log when it holds frames; "" when there is no
// index file. A reader's open and close leaves it as it was.
func fileKey(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return ""
	}
	key := fmt.Sprintf("%d.%d", fi.ModTime().UnixNano(), fi.Size())
	if w, err := os.Stat(path + "-wal"); err == nil && w.Size() > 0 {
		key += fmt.Sprintf("+%d.%d", w.ModTime().UnixNano(), w.Size())
	}
	return key
}

// fileKeys is fileKey of each of paths, all files of the folder dir, from
// one open of it (see safefs.LstatAll): a search reads every index's.
func fileKeys(dir string, paths []string) []string {
	names := make([]string, 0, 2*len(paths))
	for _, p := range paths {
		names = append(names, filepath.Base(p), filepath.Base(p)+"-wal")
	}
	keys := make([]string, len(paths))
	var main safefs.Stamp
	var mainOK bool
	safefs.LstatAll(dir, names, func(i int, st safefs.Stamp, err error) bool {
		if i%2 == 0 {
			main, mainOK = st, err == nil && filepath.Dir(paths[i/2]) == filepath.Clean(dir)
			return true
		}
		if !mainOK {
			return true
		}
		k := fmt.Sprintf("%d.%d", main.ModTime, main.Size)
		if err == nil && st.Size > 0 {
			k += fmt.Sprintf("+%d.%d", st.ModTime, st.Size)
		}
		keys[i/2] = k
		return true
	})
	return keys
}
