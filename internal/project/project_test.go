package project

import (
	"os"
	"path/filepath"
	"testing"
)

func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestRoot(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	repo := filepath.Join(base, "repo")
	mkdir(t, filepath.Join(repo, ".git", "worktrees", "wt"))
	mkdir(t, filepath.Join(repo, "src", "deep"))
	os.WriteFile(filepath.Join(repo, ".git", "worktrees", "wt", "commondir"), []byte("../..\n"), 0o644)

	wt := filepath.Join(base, "wt")
	mkdir(t, filepath.Join(wt, "pkg"))
	os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: "+filepath.Join(repo, ".git", "worktrees", "wt")+"\n"), 0o644)

	sub := filepath.Join(repo, "vendor", "sub")
	mkdir(t, sub)
	mkdir(t, filepath.Join(repo, ".git", "modules", "sub"))
	os.WriteFile(filepath.Join(sub, ".git"), []byte("gitdir: ../../.git/modules/sub\n"), 0o644)

	plain := filepath.Join(base, "plain", "dir")
	mkdir(t, plain)

	tests := []struct{ dir, want string }{
		{repo, repo},
		{filepath.Join(repo, "src", "deep"), repo},
		{wt, repo},
		{filepath.Join(wt, "pkg"), repo},
		{sub, sub},
	}
	for _, tt := range tests {
		got, err := Root(tt.dir)
		if err != nil {
			t.Fatalf("Root(%s): %v", tt.dir, err)
		}
		if got != tt.want {
			t.Errorf("Root(%s) = %s, want %s", tt.dir, got, tt.want)
		}
	}
	// Outside any repository the directory is its own project, unless an
	// ancestor of the temp dir happens to be a repository.
	if got, _ := Root(plain); got != plain && !isRepoAncestor(plain, got) {
		t.Errorf("Root(%s) = %s, want the directory itself", plain, got)
	}
	if _, err := Root(filepath.Join(base, "missing")); err == nil {
		t.Error("Root of a missing directory: want an error")
	}
}

func isRepoAncestor(dir, root string) bool {
	fi, err := os.Stat(filepath.Join(root, ".git"))
	return err == nil && fi != nil && len(root) < len(dir)
}

func TestIDIsStableAndDistinct(t *testing.T) {
	a, b := ID("/x/proj"), ID("/y/proj")
	if a == b {
		t.Fatalf("two paths share id %s", a)
	}
	if a != ID("/x/proj") {
		t.Fatal("id is not stable")
	}
	if got := ID("/x/Мой Проект!"); got[:len("мой-проект")] != "мой-проект" {
		t.Fatalf("ID = %s", got)
	}
}
