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

func TestShared(t *testing.T) {
	// From internal/testfile the shared folder is ../../../shared.
	p := Shared(t, "fixtures")
	if want, _ := filepath.Abs(filepath.Join("..", "..", "..", "shared", "fixtures")); p != want {
		t.Errorf("Shared = %s, want %s", p, want)
	}
}
