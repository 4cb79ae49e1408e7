package planfact

import (
	"bytes"
	"testing"
)

func TestWriteProblems(t *testing.T) {
	var b bytes.Buffer
	WriteProblems(&b, nil)
	if b.String() != FileName+": the contract holds\n" {
		t.Errorf("no problems: %q", b.String())
	}
	b.Reset()
	WriteProblems(&b, []Problem{{Line: 2, Field: "status", Message: "want active"}, {Line: 1, Message: "no frontmatter"}})
	if want := FileName + ":2: status: want active\n" + FileName + ":1: no frontmatter\n"; b.String() != want {
		t.Errorf("problems: %q, want %q", b.String(), want)
	}
}
