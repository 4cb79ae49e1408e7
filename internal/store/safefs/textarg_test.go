package safefs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The text a command is handed is bounded the same whether it comes from
// a file or from stdin ("-"), and too much is one error either way.
func TestReadTextArgumentBoundsFileAndStdin(t *testing.T) {
	dir := t.TempDir()
	small, big := filepath.Join(dir, "small.md"), filepath.Join(dir, "big.md")
	if err := os.WriteFile(small, []byte("four"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, []byte(strings.Repeat("x", 9)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		arg, stdin string
		want       string
		tooLarge   bool
	}{
		{arg: small, want: "four"},
		{arg: "-", stdin: "stdin", want: "stdin"},
		{arg: big, tooLarge: true},
		{arg: "-", stdin: strings.Repeat("y", 11), tooLarge: true},
	} {
		got, err := ReadTextArgument(tc.arg, strings.NewReader(tc.stdin), 8)
		if tc.tooLarge {
			if !errors.Is(err, ErrTooLarge) {
				t.Errorf("%s: %q %v, want ErrTooLarge", tc.arg, got, err)
			}
			continue
		}
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: %q %v, want %q", tc.arg, got, err, tc.want)
		}
	}
	if _, err := ReadTextArgument(dir, strings.NewReader(""), 8); err == nil {
		t.Error("a folder was read as a text")
	}
}

// NoLinkIn refuses a link at any component below the top level, the
// last one included, naming it and its target; a path of real folders, or
// one whose missing part could not be reached through a link, passes.
// ArgumentPath applies it to a file's folders wherever the command runs.
func TestNoLinkInChecksEveryComponent(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real", "notes")
	if err := os.MkdirAll(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(real, "bank.md"), []byte("pin\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "real"), filepath.Join(dir, "clone-docs")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{real, filepath.Join(real, "bank.md"), filepath.Join(dir, "missing", "x")} {
		if err := NoLinkIn(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	for _, p := range []string{filepath.Join(dir, "clone-docs"), filepath.Join(dir, "clone-docs", "notes"), filepath.Join(dir, "clone-docs", "notes", "bank.md")} {
		err := NoLinkIn(p)
		if !errors.Is(err, ErrLinkInPath) || !strings.Contains(err.Error(), filepath.Join(dir, "clone-docs")+" points to "+filepath.Join(dir, "real")) || !Refused(err) {
			t.Errorf("%s: %v", p, err)
		}
	}
	if err := NoLinkIn("relative/path"); err == nil {
		t.Error("a relative path passed")
	}
	// Named from anywhere: the working directory is not where the link is.
	if _, err := ArgumentPath(filepath.Join(dir, "clone-docs", "notes", "bank.md")); !errors.Is(err, ErrLinkInPath) {
		t.Errorf("ArgumentPath through a linked folder: %v", err)
	}
	if _, err := ArgumentPath(filepath.Join(real, "bank.md")); err != nil {
		t.Errorf("ArgumentPath of the real file: %v", err)
	}
}
