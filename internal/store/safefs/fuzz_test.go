package safefs

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzRootOf: the root is always a prefix of the path, and the path below
// it starts with .claude.
func FuzzRootOf(f *testing.F) {
	for _, s := range []string{"/p/.claude/memory_long/log.md", "a/.claude/cerebro.toml", "/.claude/memory_short", "", ".claude/.claude/memory_long/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		root := RootOf(p)
		if root == "" {
			return
		}
		clean := filepath.ToSlash(filepath.Clean(p))
		r := filepath.ToSlash(root)
		if !strings.HasPrefix(clean, r) {
			t.Fatalf("RootOf(%q) = %q is not a prefix of %q", p, root, clean)
		}
		rest := strings.TrimPrefix(strings.TrimPrefix(clean, r), "/")
		if !strings.HasPrefix(rest, ".claude/") {
			t.Fatalf("RootOf(%q) = %q leaves %q", p, root, rest)
		}
	})
}

// FuzzOpenFile plants links (inside, outside, dangling, to a directory)
// in a project's .claude and opens fuzzed relative paths below it for
// append and read: nothing outside the project is ever written, and
// whatever opens is a regular file inside it.
func FuzzOpenFile(f *testing.F) {
	for _, s := range []string{"memory_short/daily/x.md", "memory_long/out/x", "memory_long/in.md", "memory_long/../../../x", "memory_long/dir/x", "memory_long/dang", "memory_short/./../memory_long/log.md"} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, rel string, write bool) {
		tmp := t.TempDir()
		root := filepath.Join(tmp, "p")
		long := filepath.Join(root, ".claude", "memory_long")
		os.MkdirAll(long, 0o755)
		os.MkdirAll(filepath.Join(root, ".claude", "memory_short"), 0o755)
		outDir := filepath.Join(tmp, "out")
		os.MkdirAll(outDir, 0o755)
		outFile := filepath.Join(outDir, "x")
		os.WriteFile(outFile, []byte("keep"), 0o644)
		os.Symlink(outDir, filepath.Join(long, "out"))
		os.Symlink(outFile, filepath.Join(long, "outfile"))
		os.Symlink(filepath.Join(root, "README"), filepath.Join(long, "in.md"))
		os.Symlink(filepath.Join(tmp, "nowhere"), filepath.Join(long, "dang"))
		path := filepath.Join(root, ".claude", filepath.FromSlash(rel))
		if RootOf(path) != root {
			return // a path the caller built outside cerebro's layout: not confined by design
		}
		if write {
			if err := Append(path, []byte("z"), 0o644, false); err == nil {
				within(t, root, path)
			}
		} else if fh, err := Open(path); err == nil {
			st, _ := fh.Stat()
			fh.Close()
			if !st.Mode().IsRegular() {
				t.Fatalf("opened a %v", st.Mode())
			}
		}
		if got, _ := os.ReadFile(outFile); !bytes.Equal(got, []byte("keep")) {
			t.Fatalf("%q wrote outside the root", rel)
		}
		ents, _ := os.ReadDir(outDir)
		if len(ents) != 1 {
			t.Fatalf("%q created files outside the root: %v", rel, ents)
		}
		if _, err := os.Lstat(filepath.Join(tmp, "nowhere")); err == nil {
			t.Fatalf("%q created a dangling link's target", rel)
		}
	})
}

func within(t *testing.T, root, path string) {
	t.Helper()
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatalf("appended to %s, which does not resolve: %v", path, err)
	}
	rr, _ := filepath.EvalSymlinks(root)
	if real != rr && !strings.HasPrefix(real, rr+string(filepath.Separator)) {
		t.Fatalf("appended to %s outside %s", real, rr)
	}
}
