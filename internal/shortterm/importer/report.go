package importer

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"
)

// Report is what an import did, or with DryRun would do.
type Report struct {
	From     string          `json:"from"`
	DryRun   bool            `json:"dry_run"`
	Projects []ProjectReport `json:"projects"`
	// Skipped are files and sessions left out, with why; Failed the
	// sessions whose replay failed (a next run goes on with them).
	Skipped  []Skipped `json:"skipped"`
	Failed   []Skipped `json:"failed"`
	Warnings []string  `json:"warnings"`
	Seconds  float64   `json:"seconds"`
	// IndexSeconds is the part of Seconds spent bringing indexes up to
	// date.
	IndexSeconds float64 `json:"index_seconds"`
}

// ProjectReport is one project's part of an import.
type ProjectReport struct {
	// Path is the project's folder; Root where its memory goes ("" for a
	// gone project without an archive).
	Path string `json:"path"`
	Root string `json:"root,omitempty"`
	Gone bool   `json:"gone,omitempty"`
	// Sessions and Bytes count its transcripts; of them, Captured were
	// the hooks' already, Imported imported by an earlier run, Replayed
	// by this one (Resumed of them where a killed run stopped).
	Sessions int   `json:"sessions"`
	Bytes    int64 `json:"bytes"`
	Captured int   `json:"captured"`
	Imported int   `json:"imported"`
	Replayed int   `json:"replayed"`
	Resumed  int   `json:"resumed"`
	// Live were written to in the last [Live]: running, so left to
	// their hooks (a later run imports them once they are over).
	Live int `json:"live"`
	// Sections written and the daily files they went to.
	Sections int      `json:"sections"`
	Files    []string `json:"files"`

	files      map[string]bool
	registered bool
	indexed    bool
}

// Totals sums the projects.
func (r *Report) Totals() (sessions, replayed, sections, files int) {
	for _, p := range r.Projects {
		sessions += p.Sessions
		replayed += p.Replayed
		sections += p.Sections
		files += len(p.Files)
	}
	return
}

// WriteText prints the report for a person: a line per project, the gone
// ones and what was skipped, and the totals.
func (r *Report) WriteText(w io.Writer) {
	verb := "wrote"
	if r.DryRun {
		verb = "would write"
	}
	gone := 0
	for _, p := range r.Projects {
		if p.Gone {
			gone++
		}
		line := fmt.Sprintf("%s: %d sessions", p.Path, p.Sessions)
		if p.Captured > 0 {
			line += fmt.Sprintf(", %d captured by the hooks", p.Captured)
		}
		if p.Imported > 0 {
			line += fmt.Sprintf(", %d imported before", p.Imported)
		}
		if p.Live > 0 {
			line += fmt.Sprintf(", %d running (left to their hooks)", p.Live)
		}
		switch {
		case p.Gone && p.Root == "":
			line += " · folder gone: not imported (--archive DIR keeps its memory)"
		case p.Replayed > 0 || p.Sections > 0:
			where := filepath.Join(p.Root, ".claude", "memory_short", "daily")
			line += fmt.Sprintf(" · %s %d sections in %d daily files of %s", verb, p.Sections, len(p.Files), where)
			if p.Gone {
				line += " (archive: the folder is gone)"
			}
		}
		if p.Resumed > 0 {
			line += fmt.Sprintf(" (%d resumed)", p.Resumed)
		}
		fmt.Fprintln(w, line)
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(w, "skipped %s: %s\n", s.Path, s.Reason)
	}
	for _, s := range r.Failed {
		fmt.Fprintf(w, "failed %s: %s\n", s.Path, s.Reason)
	}
	for _, s := range r.Warnings {
		fmt.Fprintf(w, "warning: %s\n", s)
	}
	sessions, replayed, sections, files := r.Totals()
	fmt.Fprintf(w, "%d sessions in %d projects (%d gone); %d replayed, %s %d sections in %d daily files",
		sessions, len(r.Projects), gone, replayed, verb, sections, files)
	fmt.Fprintf(w, " (%.1fs)\n", r.Seconds)
}

// draw rewrites the progress line, at most four times a second.
func (im *run) draw(active byTime) {
	if im.o.Progress == nil {
		return
	}
	now := im.o.Now()
	if now.Sub(im.lastDraw) < 250*time.Millisecond {
		return
	}
	im.lastDraw = now
	done := im.doneB
	for _, p := range active {
		done += p.next.Offset
	}
	sessions, projects := 0, 0
	for _, p := range im.projects {
		sessions += p.Replayed
		if p.Replayed > 0 {
			projects++
		}
	}
	left := "?"
	if el := now.Sub(im.started); done > 0 && el > time.Second {
		left = (time.Duration(float64(el) * float64(im.totalB-done) / float64(done))).Round(time.Second).String()
	}
	fmt.Fprintf(im.o.Progress, "\rimport: %d sessions · %d projects · %s of %s · %s left   ",
		sessions, projects, size(done), size(im.totalB), left)
}

// size is a byte count for a person.
func size(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// joinFailed joins the failures, naming how many past the first ten.
func joinFailed(errs []error) error {
	if len(errs) > 10 {
		more := len(errs) - 10
		errs = append(errs[:10], fmt.Errorf("and %d more sessions failed", more))
	}
	return errors.Join(errs...)
}
