package rawfile

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"
)

func TestPlace(t *testing.T) {
	root := t.TempDir()
	put := func(data string) func(string) error {
		return func(abs string) error {
			if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
				return err
			}
			return os.WriteFile(abs, []byte(data), 0o644)
		}
	}
	place := func(data string) (string, bool) {
		t.Helper()
		sum := sha256.Sum256([]byte(data))
		rel, existed, err := Place(root, "a.txt", int64(len(data)), sum[:], 5, put(data))
		if err != nil {
			t.Fatal(err)
		}
		return rel, existed
	}
	for _, tc := range []struct {
		name, data  string
		want        string
		wantExisted bool
	}{
		{"new", "one", "raw/a.txt", false},
		{"same content again", "one", "raw/a.txt", true},
		{"different content, same name", "two", "raw/a-2.txt", false},
		{"second one found again", "two", "raw/a-2.txt", true},
		{"large: the names used in raw/ are taken", "large one", "raw/_large/a-3.txt", false},
		{"large found again", "large one", "raw/_large/a-3.txt", true},
		{"small: the name used in raw/_large/ is taken", "six", "raw/a-4.txt", false},
	} {
		got, existed := place(tc.data)
		if got != tc.want || existed != tc.wantExisted {
			t.Errorf("%s: Place = %s, %v; want %s, %v", tc.name, got, existed, tc.want, tc.wantExisted)
		}
	}
	if data, err := os.ReadFile(filepath.Join(root, "raw", "a.txt")); err != nil || string(data) != "one" {
		t.Errorf("raw/a.txt = %q, %v; want the first file untouched", data, err)
	}
}

func TestPlaceDoesNotFollowLinks(t *testing.T) {
	root := t.TempDir()
	target := filepath.Join(root, "elsewhere.txt")
	os.WriteFile(target, []byte("one"), 0o644)
	os.MkdirAll(filepath.Join(root, "raw"), 0o755)
	if err := os.Symlink(target, filepath.Join(root, "raw", "a.txt")); err != nil {
		t.Skip("no symbolic links here")
	}
	sum := sha256.Sum256([]byte("one"))
	rel, existed, err := Place(root, "a.txt", 3, sum[:], 0, func(abs string) error { return os.WriteFile(abs, []byte("one"), 0o644) })
	if err != nil || rel != "raw/a-2.txt" || existed {
		t.Errorf("Place = %s, %v, %v; want raw/a-2.txt stored beside the link", rel, existed, err)
	}
}
