//go:build unix

package project

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A worktree's .git file and commondir are the repository's: a commondir
// that is a link, or a FIFO that would hang a plain read, is not
// followed; the worktree stays its own project.
func TestRootFollowsNoLinkedOrSpecialGitFile(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	repo := filepath.Join(base, "repo")
	mkdir(t, filepath.Join(repo, ".git", "worktrees", "wt"))
	real := filepath.Join(base, "commondir")
	os.WriteFile(real, []byte(filepath.Join(repo, ".git")+"\n"), 0o644)
	if err := os.Symlink(real, filepath.Join(repo, ".git", "worktrees", "wt", "commondir")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	wt := filepath.Join(base, "wt")
	mkdir(t, wt)
	os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: "+filepath.Join(repo, ".git", "worktrees", "wt")+"\n"), 0o644)
	if got, err := Root(wt); err != nil || got != wt {
		t.Fatalf("Root(%s) = %s, %v; want the worktree itself (its commondir is a link)", wt, got, err)
	}

	fifo := filepath.Join(base, "fifo-wt")
	mkdir(t, fifo)
	if err := syscall.Mkfifo(filepath.Join(fifo, ".git"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if got, err := Root(fifo); err != nil || got != fifo {
		t.Fatalf("Root(%s) = %s, %v; want the folder itself (its .git is a FIFO)", fifo, got, err)
	}
}
