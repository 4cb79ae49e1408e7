package testfile

import (
	"path/filepath"
	"testing"
)

func TestWriteRead(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a", "b", "c.md")
	Write(t, p, "text\n")
	if got := Read(t, p); got != "text\n" {
		t.Errorf("Read = %q, want %q", got, "text\n")
	}
}
