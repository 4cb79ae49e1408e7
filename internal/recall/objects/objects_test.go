package objects

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPutIsContentAddressed(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	id, created, err := s.Put([]byte("# May–August\nincome 10\n"), "Report.MD")
	if err != nil || !created || !strings.HasPrefix(id, Prefix) {
		t.Fatalf("%s %v %v", id, created, err)
	}
	again, created, err := s.Put([]byte("# May–August\nincome 10\n"), "other-name.md")
	if err != nil || created || again != id {
		t.Fatalf("same bytes must give the same id once: %s %v %v", again, created, err)
	}
	p, err := s.Path(id)
	if err != nil || filepath.Ext(p) != ".md" {
		t.Fatalf("%s %v", p, err)
	}
	if b, _ := os.ReadFile(p); string(b) != "# May–August\nincome 10\n" {
		t.Fatalf("content %q", b)
	}
	if _, err := s.Path(ID([]byte("absent"))); !errors.Is(err, ErrNotFound) {
		t.Fatalf("absent: %v", err)
	}
	if _, err := s.Path("sha256-../../etc"); err == nil || errors.Is(err, ErrNotFound) {
		t.Fatalf("malformed id must be refused as such: %v", err)
	}
}
