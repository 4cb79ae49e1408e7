package safefs

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// project makes <tmp>/p/.claude/memory_short/daily and an outside file,
// and returns the project root and the outside file.
func project(t *testing.T) (root, outside string) {
	t.Helper()
	tmp := t.TempDir()
	root = filepath.Join(tmp, "p")
	if err := os.MkdirAll(filepath.Join(root, ".claude", "memory_short", "daily"), 0o755); err != nil {
		t.Fatal(err)
	}
	outside = filepath.Join(tmp, "bashrc")
	if err := os.WriteFile(outside, []byte("original\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, outside
}

func unchanged(t *testing.T, path string) {
	t.Helper()
	if got, _ := os.ReadFile(path); string(got) != "original\n" {
		t.Fatalf("%s was written through: %q", path, got)
	}
}

func TestRootOf(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"/p/.claude/memory_short/daily/x.md":                "/p",
		"/p/.claude/memory_long/log.md":                     "/p",
		"/p/.claude/cerebro.toml":                           "/p",
		"/home/u/.claude/plugins/data/x/state.json":         "",
		"/home/u/notes/x.md":                                "",
		"/.claude/memory_long/x":                            "/",
		"/a/.claude/memory_long/raw/.claude/memory_short/x": "/a/.claude/memory_long/raw",
	} {
		if runtime.GOOS == "windows" {
			continue
		}
		if got := RootOf(in); got != want {
			t.Errorf("RootOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAppendRefusesFinalSymlink(t *testing.T) {
	t.Parallel()
	root, outside := project(t)
	daily := filepath.Join(root, ".claude", "memory_short", "daily", "2026-12-01.md")
	if err := os.Symlink(outside, daily); err != nil {
		t.Skip("no symlinks here:", err)
	}
	err := Append(daily, []byte("secret distillate\n"), 0o644, true)
	if !errors.Is(err, ErrSymlink) {
		t.Fatalf("append through a symlink: err = %v, want ErrSymlink", err)
	}
	unchanged(t, outside)
	if _, err := ReadFile(daily, 1<<20); !errors.Is(err, ErrSymlink) {
		t.Fatalf("read through a symlink: err = %v, want ErrSymlink", err)
	}
	// Once the link is gone the same call works.
	os.Remove(daily)
	if err := Append(daily, []byte("one\n"), 0o644, false); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadFile(daily, 1<<20); err != nil || string(got) != "one\n" {
		t.Fatalf("after recovery: %q, %v", got, err)
	}
}

func TestClaudeDirSymlinkLeavingTheRootIsRefused(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	root := filepath.Join(tmp, "p")
	elsewhere := filepath.Join(tmp, "elsewhere")
	os.MkdirAll(root, 0o755)
	os.MkdirAll(elsewhere, 0o755)
	if err := os.Symlink(elsewhere, filepath.Join(root, ".claude")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	p := filepath.Join(root, ".claude", "memory_long", "log.md")
	if err := Append(p, []byte("x\n"), 0o644, false); !errors.Is(err, ErrEscapes) {
		t.Fatalf("err = %v, want ErrEscapes", err)
	}
	if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
		t.Fatalf("wrote outside the root: %v", ents)
	}
	// A link that stays inside the project is the owner's choice: followed.
	os.Remove(filepath.Join(root, ".claude"))
	os.MkdirAll(filepath.Join(root, "dotclaude"), 0o755)
	os.Symlink("dotclaude", filepath.Join(root, ".claude"))
	if err := Append(p, []byte("x\n"), 0o644, false); err != nil {
		t.Fatalf("link inside the root: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "dotclaude", "memory_long", "log.md")); err != nil {
		t.Fatal(err)
	}
}

func TestReadFileLimit(t *testing.T) {
	t.Parallel()
	root, _ := project(t)
	p := filepath.Join(root, ".claude", "memory_long", "big.md")
	os.MkdirAll(filepath.Dir(p), 0o755)
	f, _ := os.Create(p)
	f.Truncate(3 << 30) // sparse: 3 GB apparent, nothing on disk
	f.Close()
	if _, err := ReadFile(p, 1<<20); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	os.WriteFile(p, []byte("12345"), 0o644)
	if got, err := ReadFile(p, 5); err != nil || string(got) != "12345" {
		t.Fatalf("at the limit: %q %v", got, err)
	}
	if _, err := ReadFile(p, 4); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over the limit: %v", err)
	}
}

func TestRenameRefusesSpecialTarget(t *testing.T) {
	t.Parallel()
	root, outside := project(t)
	dir := filepath.Join(root, ".claude", "memory_short", "daily")
	d, err := OpenDir(RootOf(filepath.Join(dir, "x")), dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	f, err := d.OpenFile(".tmp", os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	os.Symlink(outside, filepath.Join(dir, "x.md"))
	if err := d.Rename(".tmp", "x.md"); !errors.Is(err, ErrSymlink) {
		t.Fatalf("err = %v", err)
	}
	unchanged(t, outside)
	if err := d.Rename(".tmp", "y.md"); err != nil {
		t.Fatal(err)
	}
}

func TestOpenDirRefusesLexicalEscape(t *testing.T) {
	t.Parallel()
	root, _ := project(t)
	if _, err := OpenDir(root, filepath.Join(root, "..", "x"), true); !errors.Is(err, ErrEscapes) {
		t.Fatalf("err = %v", err)
	}
}

// A "regular file" of the kernel's pseudo file systems (/proc/kmsg stats
// as an empty regular file and blocks its reader) is refused at open.
func TestKernelInterfacesAreRefused(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("procfs and sysfs are Linux's")
	}
	for _, p := range []string{"/proc/kmsg", "/proc/self/status", "/sys/kernel/mm/transparent_hugepage/enabled", "/proc/self/environ"} {
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() {
			continue // not here, or not a regular file: the type check refuses it anyway
		}
		f, err := Open(p)
		if err == nil {
			f.Close()
			t.Errorf("%s opened", p)
		} else if !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s: err = %v, want ErrNotRegular", p, err)
		}
	}
}

// ReadDir takes each entry's type from the listing and stats nothing: a
// directory opened through an os.Root stats every entry as it is listed
// (a folder of 100,000 day files cost 100,000 lstat calls for the three
// the rollup wanted). An entry's Info is read when asked, so it reflects a
// change made after the listing; it stays confined to the root.
func TestReadDirStatsNoEntry(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b.md", "a.md", "c.md"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	ents, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if strings.Join(names, ",") != "a.md,b.md,c.md,sub" || !ents[3].IsDir() || !ents[0].Type().IsRegular() {
		t.Fatalf("entries %v", names)
	}
	later := time.Date(2031, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(dir, "b.md"), later, later); err != nil {
		t.Fatal(err)
	}
	fi, err := ents[1].Info()
	if err != nil || !fi.ModTime().Equal(later) {
		t.Errorf("b.md's Info was read when listed, not when asked: %v %v", fi, err)
	}
}
