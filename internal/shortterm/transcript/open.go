package transcript

import (
	"fmt"
	"io"
	"os"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// DefaultLineBytes is the longest line a [Reader] assembles when its
// LineBytes is 0: the default of limits.transcript_line_bytes.
const DefaultLineBytes int64 = 16 << 20

// Reader reads transcripts with a bound on one call's read beyond its
// window: LineBytes, the longest line it will assemble. A transcript path
// arrives in hook input and may name anything: /dev/zero, a FIFO, a sparse
// file of gigabytes without a newline. The caller passes the
// limits.transcript_line_bytes of the project whose session it reads (0:
// [DefaultLineBytes]), so each project keeps its own bound in one process.
type Reader struct{ LineBytes int64 }

func (r Reader) lineBytes() int64 {
	if r.LineBytes > 0 {
		return r.LineBytes
	}
	return DefaultLineBytes
}

// limitedFile is an open transcript read through a bounded window.
type limitedFile struct {
	io.Reader
	f *os.File
}

func (l *limitedFile) Close() error { return l.f.Close() }

// open opens path through safefs (no symlink is followed for the final
// component, a FIFO or device is refused without blocking) positioned at
// from, and bounds what may be read: maxBytes plus lineBytes, so a
// line without end costs at most that much memory. maxBytes 0 reads to EOF
// unbounded, for trusted callers.
func open(path string, from, maxBytes, lineBytes int64) (io.ReadCloser, error) {
	f, err := safefs.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read transcript: %w", err)
	}
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("read transcript %s: seek to %d: %w", path, from, err)
	}
	var r io.Reader = f
	if maxBytes > 0 {
		r = io.LimitReader(f, maxBytes+lineBytes)
	}
	return &limitedFile{Reader: r, f: f}, nil
}
