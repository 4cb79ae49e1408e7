package rawfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/text/secrets"
)

// Text sources up to MaxTextBytes are scanned whole (they may need
// redacting); a larger or binary source has its printable runs scanned up
// to BinaryScanBytes and can only be refused, not redacted.
const (
	MaxTextBytes    = 64 << 20
	BinaryScanBytes = 16 << 20
)

// Located is a finding with the file it was found in.
type Located struct {
	File string `json:"file"`
	secrets.Finding
}

func (l Located) String() string {
	return fmt.Sprintf("%s:%d:%d %s (%s) %s", l.File, l.Line, l.Col, l.Kind, l.Category(), l.Preview)
}

// RefusedError is ingest's refusal: the content holds secrets or personal
// data. It lists each finding's place and kind, never the value.
type RefusedError struct{ Findings []Located }

func (e *RefusedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "refused: %d secret(s) or personal data found", len(e.Findings))
	for _, f := range e.Findings {
		b.WriteString("\n  " + f.String())
	}
	return b.String()
}

// Hint says what the person can do.
func (e *RefusedError) Hint() string {
	return "remove them from the source, or run again with --redact to replace each with a [REDACTED:kind] marker"
}

// ScreenText is the secret scan both vaults run on a text source before
// it is stored: with findings, it refuses with a [*RefusedError], or, when
// redact is set, returns the text with each finding replaced by a
// [secrets.Marker] and how many were replaced. Clean text comes back as is.
func ScreenText(name string, data []byte, redact bool) ([]byte, int, error) {
	found := scanWindows(data)
	if len(found) == 0 {
		return data, 0, nil
	}
	if !redact {
		return nil, 0, &RefusedError{Findings: Locate(name, found)}
	}
	return redactBytes(data, found), len(found), nil
}

// Redact is the guard of text a command writes into memory from a file
// or stdin (a page, a compiled truth, a relearned artifact): the scan of
// [ScreenText], every finding replaced by its marker, and the findings,
// located, for the command to name.
func Redact(name string, data []byte) ([]byte, []Located) {
	found := scanWindows(data)
	if len(found) == 0 {
		return data, nil
	}
	return redactBytes(data, found), Locate(name, found)
}

// The scan runs window by window, each ending at a line end and reading
// screenOverlap past it (a key block split by the window's end is still
// seen whole): a 63 MB source costs the scanner a window, not several
// copies of the source.
const (
	screenWindow  = 4 << 20
	screenOverlap = 64 << 10
)

// scanWindows is [secrets.Scan] over data, window by window, with the
// findings' offsets and lines those of data.
func scanWindows(data []byte) []secrets.Finding {
	var out []secrets.Finding
	lines := 0
	for a := 0; a < len(data); {
		b := min(len(data), a+screenWindow)
		if b < len(data) {
			if i := bytes.LastIndexByte(data[a:b], '\n'); i > 0 {
				b = a + i + 1
			}
		}
		c := min(len(data), b+screenOverlap)
		for _, f := range secrets.Scan(string(data[a:c])) {
			if f.Start >= b-a {
				continue // starts past the window: the next window's
			}
			f.Start += a
			f.End += a
			f.Line += lines
			out = append(out, f)
		}
		lines += bytes.Count(data[a:b], []byte{'\n'})
		a = b
	}
	return out
}

// ScreenFile is [ScreenText] for a text source on disk, read window by
// window so that it is never held whole: without redact a finding refuses
// it; with redact the text, each finding replaced by its marker, is
// written to w (when there is any finding: count > 0), and count is how
// many were replaced.
func ScreenFile(name string, r io.ReaderAt, size int64, redact bool, w io.Writer) (int, error) {
	var found []secrets.Finding
	buf := make([]byte, screenWindow+screenOverlap)
	lines := 0
	var at int64   // where the window starts in the file
	var done int64 // how much of the file is written to w
	for at < size {
		n, err := r.ReadAt(buf[:min(int64(len(buf)), size-at)], at)
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, fmt.Errorf("read %s: %w", name, err)
		}
		win := buf[:n]
		b := min(n, screenWindow)
		if at+int64(b) < size {
			if i := bytes.LastIndexByte(win[:b], '\n'); i > 0 {
				b = i + 1
			}
		}
		var mine []secrets.Finding
		for _, f := range secrets.Scan(string(win)) {
			if f.Start >= b {
				continue
			}
			mine = append(mine, f)
		}
		if redact && w != nil && (len(found) > 0 || len(mine) > 0) {
			if len(found) == 0 {
				// The first finding: what came before it is copied as it was.
				if _, err := io.Copy(w, io.NewSectionReader(r, 0, at)); err != nil {
					return 0, fmt.Errorf("redact %s: %w", name, err)
				}
				done = at
			}
			cur := int(done - at) // a finding of the window before may run into this one
			sort.Slice(mine, func(i, j int) bool { return mine[i].Start < mine[j].Start })
			var seg bytes.Buffer
			for _, f := range mine {
				if f.Start < cur || f.Start >= f.End {
					continue // overlapping: the text stays as the first left it
				}
				seg.Write(win[cur:f.Start])
				seg.WriteString(secrets.Marker(f.Kind))
				cur = f.End
			}
			if cur < b {
				seg.Write(win[cur:b])
				cur = b
			}
			if _, err := w.Write(seg.Bytes()); err != nil {
				return 0, fmt.Errorf("redact %s: %w", name, err)
			}
			done = at + int64(cur)
		}
		for _, f := range mine {
			f.Start += int(at)
			f.End += int(at)
			f.Line += lines
			found = append(found, f)
		}
		lines += bytes.Count(win[:b], []byte{'\n'})
		at += int64(b)
	}
	if len(found) == 0 {
		return 0, nil
	}
	if !redact {
		return 0, &RefusedError{Findings: Locate(name, found)}
	}
	return len(found), nil
}

// redactBytes replaces each finding with its marker in one pass (an
// overlapping finding leaves the text as the first one left it).
func redactBytes(data []byte, found []secrets.Finding) []byte {
	fs := append([]secrets.Finding(nil), found...)
	sort.Slice(fs, func(i, j int) bool { return fs[i].Start < fs[j].Start })
	var b bytes.Buffer
	b.Grow(len(data))
	at := 0
	for _, f := range fs {
		if f.Start < at || f.End > len(data) || f.Start >= f.End {
			continue
		}
		b.Write(data[at:f.Start])
		b.WriteString(secrets.Marker(f.Kind))
		at = f.End
	}
	b.Write(data[at:])
	return b.Bytes()
}

// ScreenBinary scans the printable runs of a binary source (as `strings`
// would, the first [BinaryScanBytes] of it), so that a key inside a PDF or
// an archive's text is still seen. A finding refuses the source: its bytes
// cannot be redacted.
func ScreenBinary(name string, r io.ReaderAt, size int64, redact bool) error {
	sample := make([]byte, min(size, BinaryScanBytes))
	if _, err := r.ReadAt(sample, 0); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("read %s: %w", name, err)
	}
	found := scanBinary(name, sample)
	if len(found) == 0 {
		return nil
	}
	if redact {
		return fmt.Errorf("refused: %d secret(s) or personal data found in binary file %s, which cannot be redacted", len(found), name)
	}
	return &RefusedError{Findings: found}
}

// Locate pins findings to the file they were found in.
func Locate(file string, fs []secrets.Finding) []Located {
	out := make([]Located, len(fs))
	for i, f := range fs {
		out[i] = Located{File: file, Finding: f}
	}
	return out
}

func scanBinary(name string, data []byte) []Located {
	var out []Located
	start := -1
	flush := func(end int) {
		if start >= 0 && end-start >= 6 {
			for _, f := range secrets.Scan(string(data[start:end])) {
				f.Start += start
				f.End += start
				f.Line, f.Col = 0, 0
				out = append(out, Located{File: fmt.Sprintf("%s@%d", name, f.Start), Finding: f})
			}
		}
		start = -1
	}
	for i, c := range data {
		if c >= 32 && c < 127 || c == '\n' || c == '\t' {
			if start < 0 {
				start = i
			}
		} else {
			flush(i)
		}
	}
	flush(len(data))
	return out
}
