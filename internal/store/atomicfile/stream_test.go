package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type failingReader struct{ n int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errors.New("disk gone")
	}
	f.n--
	return copy(p, "abc"), nil
}

func TestWriteFromStreamsAndFailsClean(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "f.bin")
	n, err := WriteFrom(p, strings.NewReader(strings.Repeat("x", 1<<20)), 0o644)
	if err != nil || n != 1<<20 {
		t.Fatal(n, err)
	}
	if _, err := WriteFrom(p, io.MultiReader(strings.NewReader("new"), &failingReader{n: 2}), 0o644); err == nil {
		t.Fatal("reader error not reported")
	}
	data, _ := os.ReadFile(p)
	if len(data) != 1<<20 {
		t.Fatal("a failed write changed the file")
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Fatalf("temp file left: %v", entries)
	}
}
