// Package objects is the content-addressed object store of the memory
// black box: an artifact (a document, a table, an image) is kept whole as a
// plain file named by the SHA-256 of its bytes, so the same artifact always
// gets the same id and is stored once.
//
//	st := objects.Store{Dir: filepath.Join(longDir, "objects")}
//	id, created, err := st.Put(data, "report.md")
//	path, err := st.Path(id)
package objects

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Prefix starts every object id.
const Prefix = "sha256-"

// ErrNotFound means no object has the id.
var ErrNotFound = errors.New("object not found")

// Store keeps objects under Dir as <first two hex>/<hex><ext>; the name's
// extension is kept so a person can open the file.
type Store struct{ Dir string }

// ID is the id the bytes would get.
func ID(data []byte) string {
	h := sha256.Sum256(data)
	return Prefix + hex.EncodeToString(h[:])
}

// Put stores data; created is false when the object was already there.
func (s Store) Put(data []byte, name string) (id string, created bool, err error) {
	id = ID(data)
	if _, err := s.Path(id); err == nil {
		return id, false, nil
	} else if !errors.Is(err, ErrNotFound) {
		return "", false, err
	}
	hexs := strings.TrimPrefix(id, Prefix)
	ext := strings.ToLower(filepath.Ext(name))
	if len(ext) > 10 || strings.ContainsAny(ext, ` /\`) {
		ext = ""
	}
	path := filepath.Join(s.Dir, hexs[:2], hexs+ext)
	if err := safefs.MkdirAll(filepath.Dir(path)); err != nil {
		return "", false, fmt.Errorf("create object directory: %w", err)
	}
	if err := atomicfile.Write(path, data, 0o644); err != nil {
		return "", false, fmt.Errorf("store object %s: %w", id, err)
	}
	return id, true, nil
}

// Path finds the file of an object.
func (s Store) Path(id string) (string, error) {
	hexs := strings.TrimPrefix(id, Prefix)
	if len(hexs) != 64 || strings.Trim(hexs, "0123456789abcdef") != "" {
		return "", fmt.Errorf("object id %q: want %s followed by 64 hex digits", id, Prefix)
	}
	m, err := filepath.Glob(filepath.Join(s.Dir, hexs[:2], hexs+"*"))
	if err != nil || len(m) == 0 {
		return "", fmt.Errorf("object %s: %w", id, ErrNotFound)
	}
	return m[0], nil
}
