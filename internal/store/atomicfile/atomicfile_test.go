package atomicfile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestWriteReplacesAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "f.md")
	if err := Write(p, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	if string(got) != "two" {
		t.Fatalf("got %q, want %q", got, "two")
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Fatalf("directory holds %d entries, want only the file", len(entries))
	}
}

func TestConcurrentAppendsNeitherLoseNorInterleave(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log.md")
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				line := fmt.Sprintf("%d-%d %s\n", w, i, strings.Repeat("x", 100))
				if err := Append(p, []byte(line), 0o644); err != nil {
					t.Error(err)
				}
			}
		}(w)
	}
	wg.Wait()
	data, _ := os.ReadFile(p)
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	if len(lines) != 400 {
		t.Fatalf("got %d lines, want 400", len(lines))
	}
	seen := map[string]bool{}
	for _, l := range lines {
		if len(l) < 100 {
			t.Fatalf("torn line %q", l)
		}
		seen[string(l)] = true
	}
	if len(seen) != 400 {
		t.Fatalf("got %d distinct lines, want 400", len(seen))
	}
}

func TestUnsyncedVariants(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b.txt")
	if err := AppendUnsynced(path, []byte("one\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := AppendUnsynced(path, []byte("two\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "one\ntwo\n" {
		t.Fatalf("%q", got)
	}
	other := filepath.Join(t.TempDir(), "c", "d.json")
	for _, v := range []string{"v1", "v2"} {
		if err := ReplaceUnsynced(other, []byte(v), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := os.ReadFile(other); string(got) != "v2" {
		t.Fatalf("%q", got)
	}
	ents, _ := os.ReadDir(filepath.Dir(other))
	if len(ents) != 1 {
		t.Fatalf("temp files left: %v", ents)
	}
}
