package search

import (
	"fmt"
	"io"
	"strings"
)

// WriteText writes the response as `memhook search` prints it: what a
// search across projects covered, then each result's citation (or path),
// score and snippet. The notes are the caller's to print.
func (r *Response) WriteText(w io.Writer) error {
	if a := r.Across; a != nil {
		fmt.Fprintf(w, "across projects: %s\n\n", a.Line())
	}
	if len(r.Results) == 0 {
		_, err := fmt.Fprintln(w, "no results")
		return err
	}
	for i, res := range r.Results {
		head := res.Citation
		if head == "" { // search.citations = off: the file, to read on with memhook get
			head = res.Path
		}
		if r.Across != nil && res.Project != "" && res.Project != r.Across.Self {
			head += "  [another project: " + res.Project + "]"
		}
		fmt.Fprintf(w, "%d. %s  (score %.3f, %s)\n", i+1, head, res.Score, r.Mode)
		for _, l := range strings.Split(res.Snippet, "\n") {
			fmt.Fprintf(w, "   %s\n", l)
		}
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
	}
	return nil
}

// Line says in one line what a search across projects covered.
func (a *AcrossReport) Line() string {
	line := fmt.Sprintf("%d of %d projects searched", a.Searched, a.Projects)
	if len(a.NotIndexed) > 0 {
		var names []string
		seen := map[string]bool{}
		for _, s := range a.NotIndexed {
			if !seen[s.Project] {
				seen[s.Project] = true
				names = append(names, s.Project)
			}
		}
		line += fmt.Sprintf(", memory not yet indexed in %d (%s)", len(names), strings.Join(names, ", "))
	}
	if len(a.Skipped) > 0 {
		var names []string
		for _, s := range a.Skipped {
			names = append(names, s.Project)
		}
		line += fmt.Sprintf(", %d skipped (%s)", len(a.Skipped), strings.Join(names, ", "))
	}
	if a.OptedOut > 0 {
		line += fmt.Sprintf(", %d keep their memory to themselves", a.OptedOut)
	}
	return line
}

// Line says in one line what the update did to the root's index, as
// `memhook index` prints it; base is the project root paths are shown
// relative to.
func (rep RootReport) Line(base string) string {
	st := rep.Stats
	rebuilt := ""
	if rep.Rebuilt {
		rebuilt = ", rebuilt"
	}
	left := ""
	if h := st.Hygiene; h.Blobs > 0 || h.BinaryFiles > 0 || h.CutFiles > 0 {
		left = fmt.Sprintf("; not indexed: %d embedded data runs or minified lines (%s), %d binary files, the lines past %d of %d files", h.Blobs, sizeText(h.BlobBytes), h.BinaryFiles, MaxIndexLines, h.CutFiles)
	}
	return fmt.Sprintf("%s: %d files, %d chunks (%d read again, %d removed%s%s)",
		DisplayPath(rep.Root.Dir, base), rep.Files, rep.Chunks, st.Indexed, st.Removed, rebuilt, left)
}

// sizeText is a byte count for people: 512 B, 3.4 KB, 12.0 MB.
func sizeText(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}
