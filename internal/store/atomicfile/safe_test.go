package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Every writer of this package refuses a planted link instead of writing
// through it, and works again once the link is gone.
func TestWritersRefusePlantedLinks(t *testing.T) {
	tmp := t.TempDir()
	outside := filepath.Join(tmp, "bashrc")
	os.WriteFile(outside, []byte("original\n"), 0o644)
	dir := filepath.Join(tmp, "p", ".claude", "memory_long")
	os.MkdirAll(dir, 0o755)
	log := filepath.Join(dir, "log.md")
	writers := map[string]func() error{
		"Append":          func() error { return Append(log, []byte("x\n"), 0o644) },
		"AppendUnsynced":  func() error { return AppendUnsynced(log, []byte("x\n"), 0o644) },
		"Write":           func() error { return Write(log, []byte("x\n"), 0o644) },
		"Replace":         func() error { return Replace(log, []byte("x\n"), 0o644) },
		"ReplaceUnsynced": func() error { return ReplaceUnsynced(log, []byte("x\n"), 0o644) },
	}
	for name, w := range writers {
		os.Remove(log)
		if err := os.Symlink(outside, log); err != nil {
			t.Skip("no symlinks:", err)
		}
		if err := w(); !errors.Is(err, safefs.ErrSymlink) {
			t.Errorf("%s: err = %v, want ErrSymlink", name, err)
		}
		if got, _ := os.ReadFile(outside); string(got) != "original\n" {
			t.Fatalf("%s wrote through the link: %q", name, got)
		}
		os.Remove(log)
		if err := w(); err != nil {
			t.Errorf("%s after the link is gone: %v", name, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 { // log.md and log.md.lock
		t.Errorf("left behind: %v", ents)
	}
}

func TestLockFileLinkIsRefused(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "p", ".claude", "memory_long")
	os.MkdirAll(dir, 0o755)
	target := filepath.Join(tmp, "created-outside")
	os.Symlink(target, filepath.Join(dir, "log.md.lock"))
	err := Append(filepath.Join(dir, "log.md"), []byte("x"), 0o644)
	if !errors.Is(err, safefs.ErrSymlink) {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Lstat(target); err == nil {
		t.Fatal("the lock created a file outside the root")
	}
}
