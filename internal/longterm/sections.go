package longterm

import "strings"

// Section names on pages that carry facts and compiled truth (Iva's Cards).
// Russian headings are accepted too, since pages may be written in Russian.
var (
	truthNames   = []string{"compiled truth", "скомпилированная правда", "правда"}
	factNames    = []string{"facts", "факты"}
	archiveNames = []string{"archive", "архив"}
)

// Canonical headings memhook writes when a section is missing.
const (
	TruthHeading   = "## Compiled truth"
	FactsHeading   = "## Facts"
	ArchiveHeading = "## Archive"
)

// section is a "## " heading's span of lines: [Head, End), End exclusive.
type section struct{ Head, End int }

// findSection locates the first level-2 heading whose text is one of names
// (case-insensitive), outside code fences. ok is false when there is none.
func findSection(lines []string, names []string) (section, bool) {
	inFence := false
	start := -1
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		level := headingLevel(t)
		if start >= 0 && level > 0 && level <= 2 {
			return section{start, i}, true
		}
		if start < 0 && level == 2 {
			name := strings.ToLower(strings.TrimSpace(strings.TrimLeft(t, "#")))
			for _, n := range names {
				if name == n {
					start = i
				}
			}
		}
	}
	if start >= 0 {
		return section{start, len(lines)}, true
	}
	return section{}, false
}

func headingLevel(t string) int {
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (len(t) > n && t[n] != ' ') {
		return 0
	}
	return n
}

// lastContent is the index after the last non-blank line of the section
// (the heading line itself when the section is empty).
func lastContent(lines []string, s section) int {
	at := s.Head + 1
	for i := s.Head + 1; i < s.End; i++ {
		if strings.TrimSpace(lines[i]) != "" {
			at = i + 1
		}
	}
	return at
}

func insertLines(lines []string, at int, add ...string) []string {
	out := make([]string, 0, len(lines)+len(add))
	out = append(out, lines[:at]...)
	out = append(out, add...)
	return append(out, lines[at:]...)
}

// splitLines splits text into lines without their "\n"; a final newline
// does not make an extra empty line.
func splitLines(text string) []string {
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		return []string{}
	}
	return strings.Split(text, "\n")
}

func joinLines(lines []string) string { return strings.Join(lines, "\n") + "\n" }
