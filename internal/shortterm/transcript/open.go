package transcript

import (
	"fmt"
	"io"
	"os"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// MaxLineBytes bounds one call's read beyond its window (the longest line
// [Read] will assemble). A transcript path arrives in hook input and may
// name anything: /dev/zero, a FIFO, a sparse file of gigabytes without a
// newline. The composition root sets it from the limits.transcript_line_bytes
// setting.
var MaxLineBytes int64 = 16 << 20

// limitedFile is an open transcript read through a bounded window.
type limitedFile struct {
	io.Reader
	f *os.File
}

func (l *limitedFile) Close() error { return l.f.Close() }

// open opens path through safefs (no symlink is followed for the final
// component, a FIFO or device is refused without blocking) positioned at
// from, and bounds what may be read: maxBytes plus [MaxLineBytes], so a
// line without end costs at most that much memory. maxBytes 0 reads to EOF
// unbounded, for trusted callers.
func open(path string, from, maxBytes int64) (io.ReadCloser, error) {
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
		r = io.LimitReader(f, maxBytes+MaxLineBytes)
	}
	return &limitedFile{Reader: r, f: f}, nil
}
