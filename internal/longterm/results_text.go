package longterm

import (
	"fmt"
	"io"
)

// WriteText says what `ingest` did; largeBytes is long.raw_large_bytes,
// dir the long-term root.
func (r *IngestResult) WriteText(w io.Writer, largeBytes int64, dir string) {
	switch {
	case r.Already:
		fmt.Fprintf(w, "already ingested: %s (identical)\n", r.Raw)
	case r.Large:
		fmt.Fprintf(w, "copied to %s (%d bytes, over %d: stored in raw/_large/)\n", r.Raw, r.Bytes, largeBytes)
	default:
		fmt.Fprintf(w, "copied to %s (%d bytes)\n", r.Raw, r.Bytes)
	}
	if r.Redacted > 0 {
		fmt.Fprintf(w, "redacted %d secret(s) or personal data in the stored copy\n", r.Redacted)
	}
	if r.PageKept {
		fmt.Fprintf(w, "source page: %s (already there, kept)\n", r.Page)
	} else {
		fmt.Fprintf(w, "source page: %s (new stub)\n", r.Page)
	}
	fmt.Fprintf(w, "long-term root: %s\n", dir)
}

// WriteText says what `fact add` did.
func (r *FactResult) WriteText(w io.Writer) {
	if r.Already {
		fmt.Fprintf(w, "%s: fact already there, nothing added\n", r.Page)
		return
	}
	fmt.Fprintf(w, "%s: %s\n", r.Page, r.Line)
}

// WriteText says what `wiki write` did to the page at path.
func (r *PageWriteResult) WriteText(w io.Writer, path string) {
	switch {
	case r.Created:
		fmt.Fprintf(w, "wrote %s (new page)\n", path)
	case r.Changed:
		fmt.Fprintf(w, "wrote %s\n", path)
	default:
		fmt.Fprintf(w, "%s already holds this text\n", path)
	}
}

// WriteText says what `rollup-days` wrote into dir and what waits.
func (r *RollupResult) WriteText(w io.Writer, dir string) {
	for _, p := range r.Written {
		fmt.Fprintf(w, "wrote %s\n", p)
	}
	fmt.Fprintf(w, "%d roll-ups written, %d unchanged in %s\n", len(r.Written), len(r.Unchanged), dir)
	for _, p := range r.Waiting {
		fmt.Fprintf(w, "waiting: %s\n", p)
	}
}

// WriteDays prints the closed days `compile list` found, a line each.
func WriteDays(w io.Writer, days []Day) {
	if len(days) == 0 {
		fmt.Fprintln(w, "no closed days to compile")
	}
	for _, d := range days {
		fmt.Fprintf(w, "%s\t%s\n", d.Date, d.Path)
	}
}
