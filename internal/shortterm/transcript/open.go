package transcript

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/tidwall/gjson"
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
//
// AsOf, when set, reads the session's files as they were at a moment of
// their past (nil: as they are).
type Reader struct {
	LineBytes int64
	AsOf      *AsOf
}

// AsOf is a moment of a session that is over: its transcript as it was
// then, Bytes long, and of each subagent's transcript the lines stamped
// no later than Time. `memhook import` replays a finished session through
// it, so that each hook reads what Claude Code had written when it would
// have fired: [Reader.ReadLog], [Reader.Read] and [Reader.Count] stop at
// Bytes, [Reader.ReadSidechainLog] before the first line stamped after
// Time (a line without a stamp is read).
type AsOf struct {
	Bytes int64
	Time  time.Time
}

// LineTime is a transcript line's timestamp; false when it has none.
func LineTime(line []byte) (time.Time, bool) {
	s := gjson.GetBytes(line, "timestamp").Str
	if s == "" {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil
}

// until is where a read of the main transcript ends: -1 at its real end.
func (r Reader) until() int64 {
	if r.AsOf == nil {
		return -1
	}
	return r.AsOf.Bytes
}

// later reports whether a subagent's line was written after r's moment.
func (r Reader) later(line []byte) bool {
	if r.AsOf == nil {
		return false
	}
	t, ok := LineTime(line)
	return ok && t.After(r.AsOf.Time)
}

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
// unbounded, for trusted callers. until >= 0 makes the file end there.
func open(path string, from, maxBytes, lineBytes, until int64) (io.ReadCloser, error) {
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
	if until >= 0 {
		r = io.LimitReader(r, max(until-from, 0))
	}
	return &limitedFile{Reader: r, f: f}, nil
}
