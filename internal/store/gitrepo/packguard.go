package gitrepo

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// A fetch hands go-git the remote's pack, and go-git's indexer inflates
// every object of it whole into memory, one after the other: a 1 GiB blob
// took 1 GiB of heap however the rest was streamed. So the pack is read a
// second time as it arrives, object header by object header, and the
// first object over the repository's file bound stops the fetch before
// the indexer reaches it: the bound of what is read whole is the bound of
// what memory keeps (limits.ingest_bytes).

// ErrObjectTooLarge is a fetch stopped by an object over the bound.
var ErrObjectTooLarge = errors.New("is over the bound of a file memory keeps (limits.ingest_bytes)")

// guardedStorage is a repository's object store whose fetches go through
// a [packGuard] at the repository's file bound.
type guardedStorage struct {
	*filesystem.Storage
	max *int64
}

// PackfileWriter is where go-git writes a fetched pack.
func (s guardedStorage) PackfileWriter() (io.WriteCloser, error) {
	w, err := s.Storage.PackfileWriter()
	if err != nil {
		return nil, err
	}
	return newPackGuard(w, *s.max, s.removeTemps), nil
}

// removeTemps removes the temporary packs a stopped fetch left behind.
func (s guardedStorage) removeTemps() {
	fs := s.Storage.Filesystem()
	ents, err := fs.ReadDir("objects/pack")
	if err != nil {
		return
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "tmp_pack_") {
			safefs.Remove(fs.Join(fs.Root(), "objects", "pack", e.Name()))
		}
	}
}

// packGuard passes a pack on to w while a scanner reads the same bytes
// through a pipe; an object over max closes the pipe with an error, which
// the next Write returns, so go-git stops copying.
type packGuard struct {
	w       io.WriteCloser
	pw      *io.PipeWriter
	done    chan error
	cleanup func()
}

func newPackGuard(w io.WriteCloser, max int64, cleanup func()) *packGuard {
	pr, pw := io.Pipe()
	g := &packGuard{w: w, pw: pw, done: make(chan error, 1), cleanup: cleanup}
	go func() {
		err := scanPack(pr, max)
		if err != nil {
			pr.CloseWithError(err)
		} else {
			io.Copy(io.Discard, pr) // the trailer
		}
		g.done <- err
	}()
	return g
}

func (g *packGuard) Write(p []byte) (int, error) {
	if _, err := g.pw.Write(p); err != nil {
		return 0, err
	}
	return g.w.Write(p)
}

func (g *packGuard) Close() error {
	g.pw.Close()
	err := <-g.done
	werr := g.w.Close()
	if err != nil {
		if errors.Is(err, ErrObjectTooLarge) {
			g.cleanup()
		}
		return err
	}
	return werr
}

// scanPack reads a pack's object headers and stops at the first object
// whose content is over max bytes. A delta's content is the object it
// makes, whose size opens the delta's data.
func scanPack(r io.Reader, max int64) error {
	sc := packfile.NewScanner(r)
	_, count, err := sc.Header()
	if err != nil {
		return fmt.Errorf("read the pack: %w", err)
	}
	for i := uint32(0); i < count; i++ {
		h, err := sc.NextObjectHeader()
		if err != nil {
			return fmt.Errorf("read the pack: %w", err)
		}
		size := h.Length
		if h.Type.IsDelta() {
			if size, err = deltaTargetSize(sc); err != nil {
				return fmt.Errorf("read the pack: %w", err)
			}
		}
		if size > max {
			return fmt.Errorf("the remote's history holds an object of %d bytes, which %w of %d bytes; nothing was taken", size, ErrObjectTooLarge, max)
		}
	}
	return nil
}

// deltaTargetSize reads the delta at the scanner's position whole (its
// inflated data, bounded by its declared length) and returns the size of
// the object it makes: the second varint of its data.
func deltaTargetSize(sc *packfile.Scanner) (int64, error) {
	rc, err := sc.ReadObject()
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	var head [2 * binary.MaxVarintLen64]byte
	n, err := io.ReadFull(rc, head[:])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return 0, err
	}
	_, k := binary.Uvarint(head[:n]) // the base's size
	if k <= 0 {
		return 0, errors.New("a delta without its sizes")
	}
	target, m := binary.Uvarint(head[k:n])
	if m <= 0 {
		return 0, errors.New("a delta without its sizes")
	}
	if _, err := io.Copy(io.Discard, rc); err != nil {
		return 0, err
	}
	if target > math.MaxInt64 {
		return math.MaxInt64, nil
	}
	return int64(target), nil
}
