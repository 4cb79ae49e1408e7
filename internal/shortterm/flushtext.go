package shortterm

import (
	"fmt"
	"io"
)

// Line says what the flush did to its session, as `memhook flush` prints
// it: the section written, or why none was.
func (r FlushReport) Line() string {
	if r.File != "" {
		return fmt.Sprintf("%s: wrote section %d (%d replies, %d characters) to %s", r.Session, r.Seq, r.Replies, r.Chars, r.File)
	}
	return fmt.Sprintf("%s: skipped (%s)", r.Session, r.Skipped)
}

// WriteFlushReports writes a line per report; with no report and no
// error (failed false), one line says there was nothing to flush.
func WriteFlushReports(w io.Writer, reports []FlushReport, failed bool) error {
	for _, r := range reports {
		if _, err := fmt.Fprintln(w, r.Line()); err != nil {
			return err
		}
	}
	if !failed && len(reports) == 0 {
		_, err := fmt.Fprintln(w, "nothing to flush: no session has unflushed dialogue")
		return err
	}
	return nil
}
