package gitrepo

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// victim is another repository with one commit, and its commit count.
func victim(t *testing.T) (dir string, commits func() int) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "victim")
	r, err := Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "README"), []byte("mine\n"), 0o644)
	if _, err := r.CommitPaths([]string{"README"}, "first", time.Now()); err != nil {
		t.Fatal(err)
	}
	return dir, func() int {
		r, err := OpenAtForReading(dir)
		if err != nil {
			t.Fatal(err)
		}
		log, _ := r.Log("", 0)
		return len(log)
	}
}

// A memory folder whose .git sends go-git to another repository (a
// gitfile, a link, a commondir) is refused by Init and OpenAt, and the
// other repository gains no commit.
func TestForeignDotGitIsRefused(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"gitfile", "gitfile-relative", "symlink", "commondir"} {
		t.Run(kind, func(t *testing.T) {
			v, commits := victim(t)
			mem := filepath.Join(t.TempDir(), "memory_long")
			os.MkdirAll(mem, 0o755)
			os.WriteFile(filepath.Join(mem, "note.md"), []byte("a note\n"), 0o644)
			dotGit := filepath.Join(mem, ".git")
			switch kind {
			case "gitfile":
				os.WriteFile(dotGit, []byte("gitdir: "+filepath.Join(v, ".git")+"\n"), 0o644)
			case "gitfile-relative":
				rel, _ := filepath.Rel(mem, filepath.Join(v, ".git"))
				os.WriteFile(dotGit, []byte("gitdir: "+rel+"\n"), 0o644)
			case "symlink":
				os.Symlink(filepath.Join(v, ".git"), dotGit)
			case "commondir":
				os.MkdirAll(dotGit, 0o755)
				os.WriteFile(filepath.Join(dotGit, "commondir"), []byte(filepath.Join(v, ".git")+"\n"), 0o644)
			}
			for name, open := range map[string]func(string) (*Repo, error){"Init": Init, "OpenAt": OpenAt} {
				r, err := open(mem)
				if !errors.Is(err, ErrForeign) {
					t.Errorf("%s: err = %v, want ErrForeign", name, err)
				}
				if r != nil {
					r.CommitPaths([]string{"note.md"}, "planted", time.Now())
				}
			}
			if n := commits(); n != 1 {
				t.Errorf("the other repository has %d commits, want 1", n)
			}
		})
	}
}

// A repository of its own whose object store is a link out: go-git is
// bound to .git (a link resolves as if .git were the file system's root)
// and writes nothing outside.
func TestOwnRepositoryNeverWritesThroughALinkInsideDotGit(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	mem := filepath.Join(t.TempDir(), "memory_long")
	r, err := Init(mem)
	if err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(mem, ".git", "objects"))
	os.Symlink(outside, filepath.Join(mem, ".git", "objects"))
	os.WriteFile(filepath.Join(mem, "note.md"), []byte("a note\n"), 0o644)
	r.CommitPaths([]string{"note.md"}, "note", time.Now())
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("objects were written outside: %d entries", len(ents))
	}
}

// The repository of its own still works: init, reopen, commit, log.
func TestOwnRepositoryRoundTrip(t *testing.T) {
	t.Parallel()
	mem := filepath.Join(t.TempDir(), "memory_long")
	r, err := Init(mem)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(mem, "note.md"), []byte("a note\n"), 0o644)
	if _, err := r.CommitPaths([]string{"note.md"}, "note", time.Now()); err != nil {
		t.Fatal(err)
	}
	again, err := OpenAt(mem)
	if err != nil {
		t.Fatal(err)
	}
	if log, err := again.Log("note.md", 0); err != nil || len(log) != 1 {
		t.Fatalf("log = %v, %v", log, err)
	}
	if err := CheckOwn(mem); err != nil {
		t.Fatalf("CheckOwn of its own repository: %v", err)
	}
	if err := CheckOwn(t.TempDir()); !errors.Is(err, ErrNoRepo) {
		t.Fatalf("CheckOwn of a plain folder: %v, want ErrNoRepo", err)
	}
}

// A file over streamAddBytes is staged by streaming its blob: the commit
// holds exactly its content, and a later status sees it unchanged.
func TestLargeFileIsCommittedByStreaming(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "vault")
	r, err := Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	big := make([]byte, streamAddBytes+12345)
	for i := range big {
		big[i] = byte('a' + i%26)
	}
	os.MkdirAll(filepath.Join(dir, "raw"), 0o755)
	os.WriteFile(filepath.Join(dir, "raw", "big.txt"), big, 0o644)
	if _, err := r.CommitPaths([]string{"raw/big.txt"}, "big", time.Now()); err != nil {
		t.Fatal(err)
	}
	got, err := r.FileAt("HEAD", "raw/big.txt")
	if err != nil || !bytes.Equal(got, big) {
		t.Fatalf("committed %d bytes, want %d (%v)", len(got), len(big), err)
	}
	if d, err := r.Dirty(""); err != nil || len(d) != 0 {
		t.Fatalf("after the commit: dirty %v, %v", d, err)
	}
	if _, err := r.CommitPaths([]string{"raw/big.txt"}, "again", time.Now()); !errors.Is(err, ErrNothingToCommit) {
		t.Fatalf("the unchanged file committed again: %v", err)
	}
}
