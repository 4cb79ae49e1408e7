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
