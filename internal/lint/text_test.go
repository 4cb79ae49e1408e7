package lint

import (
	"bytes"
	"testing"
)

// TestWriteFormsAndCounts: the project form is one jumpable line a
// finding, the vault form groups by file with "-" for a whole-file
// finding, and both end with the counts.
func TestWriteFormsAndCounts(t *testing.T) {
	fs := []Finding{
		{File: "a.md", Line: 3, Rule: "broken-link", Message: "no page X", Severity: Error},
		{File: "a.md", Rule: "orphan", Message: "nothing links here", Severity: Warning},
		{File: "b.md", Line: 1, Rule: "missing-type", Message: "no type", Severity: Error},
	}
	var b bytes.Buffer
	WriteLines(&b, fs, "/m")
	want := "a.md:3: error: no page X [broken-link]\na.md:0: warning: nothing links here [orphan]\nb.md:1: error: no type [missing-type]\n2 error(s), 1 warning(s) in /m\n"
	if b.String() != want {
		t.Errorf("lines:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	WriteByFile(&b, fs, "/v")
	want = "a.md\n  3: error broken-link: no page X\n  -: warning orphan: nothing links here\nb.md\n  1: error missing-type: no type\n2 error(s), 1 warning(s) in /v\n"
	if b.String() != want {
		t.Errorf("by file:\n%s\nwant:\n%s", b.String(), want)
	}
}
