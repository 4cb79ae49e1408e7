package rawfile

import (
	"errors"
	"fmt"
	"io"
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
	found := secrets.Scan(string(data))
	if len(found) == 0 {
		return data, 0, nil
	}
	if !redact {
		return nil, 0, &RefusedError{Findings: Locate(name, found)}
	}
	return []byte(secrets.Redact(string(data), found)), len(found), nil
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
