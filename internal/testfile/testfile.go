// Package testfile writes and reads the real files tests build their
// fixtures from, failing the test on any error so that a fixture that was
// not written cannot pass for one that was:
//
//	testfile.Write(t, filepath.Join(root, "wiki", "a.md"), "# A\n")
//	got := testfile.Read(t, path)
//
// Only tests import it.
package testfile

import (
	"os"
	"path/filepath"
	"testing"
)

// Write creates path with text, making its directories first.
func Write(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Read returns the text of path.
func Read(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
