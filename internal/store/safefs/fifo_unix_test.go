//go:build unix

package safefs

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestSpecialFilesAreRefusedWithoutBlocking(t *testing.T) {
	t.Parallel()
	root, _ := project(t)
	dir := filepath.Join(root, ".claude", "memory_long")
	os.MkdirAll(dir, 0o755)
	fifo := filepath.Join(dir, "План-факт.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "CORE.md")
	os.Symlink("/dev/zero", zero)
	sub := filepath.Join(dir, "log.md")
	os.Mkdir(sub, 0o755)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, p := range []string{fifo, sub} {
			if _, err := ReadFile(p, 1<<20); !errors.Is(err, ErrNotRegular) {
				t.Errorf("read %s: err = %v, want ErrNotRegular", p, err)
			}
			if err := Append(p, []byte("x"), 0o644, false); !errors.Is(err, ErrNotRegular) {
				t.Errorf("append %s: err = %v, want ErrNotRegular", p, err)
			}
		}
		if _, err := ReadFile(zero, 1<<20); !errors.Is(err, ErrSymlink) {
			t.Errorf("read /dev/zero link: err = %v", err)
		}
		if _, err := ReadFile("/dev/zero", 1<<20); !errors.Is(err, ErrNotRegular) {
			t.Errorf("read /dev/zero: err = %v", err)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("opening a FIFO blocked")
	}
}

func TestDirectoryWhereAFIFOIsRefusedWithoutBlocking(t *testing.T) {
	t.Parallel()
	root, _ := project(t)
	daily := filepath.Join(root, ".claude", "memory_short", "daily")
	os.Remove(daily)
	if err := syscall.Mkfifo(daily, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := ReadDirNames(daily); !errors.Is(err, ErrNotDir) {
			t.Errorf("list: err = %v", err)
		}
		if err := Append(filepath.Join(daily, "x.md"), []byte("x"), 0o644, false); !errors.Is(err, ErrNotDir) {
			t.Errorf("append: err = %v", err)
		}
		if _, err := ReadDirNames("/dev/null"); !errors.Is(err, ErrNotDir) {
			t.Errorf("list a device: %v", err)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("blocked on a FIFO directory")
	}
}
