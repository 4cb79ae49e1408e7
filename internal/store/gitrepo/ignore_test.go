package gitrepo

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// TestIgnoredHonoursEveryRule: new files covered by .gitignore,
// .git/info/exclude or the user's global excludes are ignored (not dirty,
// listed by Ignored); a file tracked before its folder was excluded keeps
// being committed.
func TestIgnoredHonoursEveryRule(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home := t.TempDir()
	r, err := Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	write := func(root, rel, s string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(dir, "notes/old.md", "old\n")
	if _, err := r.CommitPaths([]string{"notes/old.md"}, "first", time.Now()); err != nil {
		t.Fatal(err)
	}
	write(dir, ".gitignore", "notes/\n")
	write(dir, ".git/info/exclude", "scratch.md\n")
	// The global file named by core.excludesfile in ~/.gitconfig.
	write(home, ".gitconfig", "[core]\n\texcludesfile = ~/my-ignores\n")
	write(home, "my-ignores", "*.secret.md\n")
	if err := r.UseUserExcludes(UserDirs{Home: home, ConfigHome: filepath.Join(home, ".config")}); err != nil {
		t.Fatal(err)
	}
	write(dir, "notes/old.md", "changed\n")
	write(dir, "notes/new.md", "new\n")
	write(dir, "scratch.md", "s\n")
	write(dir, "wiki/a.secret.md", "s\n")
	write(dir, "wiki/kept.md", "k\n")
	got, err := r.Ignored([]string{"notes/old.md", "notes/new.md", "scratch.md", "wiki/a.secret.md", "wiki/kept.md"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"notes/new.md", "scratch.md", "wiki/a.secret.md"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("ignored %v, want %v", got, want)
	}
	d, err := r.Dirty("")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range got {
		if _, ok := d[p]; ok {
			t.Errorf("ignored %s is dirty", p)
		}
	}
	if _, ok := d["notes/old.md"]; !ok {
		t.Fatalf("the tracked file under an excluded folder is not dirty: %v", d)
	}
	if _, err := r.CommitPaths([]string{"notes/old.md"}, "keep", time.Now()); err != nil {
		t.Fatalf("the tracked file was not committed: %v", err)
	}
	if b, _ := r.FileAt("HEAD", "notes/old.md"); string(b) != "changed\n" {
		t.Fatalf("committed %q", b)
	}
	// Without a core.excludesfile, git's default place counts.
	home2 := t.TempDir()
	write(home2, ".config/git/ignore", "*.md\n")
	if err := r.UseUserExcludes(UserDirs{Home: home2}); err != nil {
		t.Fatal(err)
	}
	if got, _ := r.Ignored([]string{"wiki/kept.md"}); len(got) != 1 {
		t.Fatalf("the default global excludes file was not read: %v", got)
	}
}
