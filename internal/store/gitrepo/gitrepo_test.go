package gitrepo

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestCommitLogFileAtActivity(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r, err := Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	if log, err := r.Log("", 0); err != nil || len(log) != 0 {
		t.Fatalf("empty repo log = %v, %v", log, err)
	}
	skill := filepath.Join(dir, "skills", "a", "SKILL.md")
	os.MkdirAll(filepath.Dir(skill), 0o755)
	os.WriteFile(skill, []byte("v1\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "other.txt"), []byte("x\n"), 0o644)
	t0 := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	h1, err := r.CommitPaths([]string{skill}, "skill a: v1", t0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.CommitPaths([]string{skill}, "again", t0); !errors.Is(err, ErrNothingToCommit) {
		t.Fatalf("unchanged path: err = %v, want ErrNothingToCommit", err)
	}
	os.WriteFile(skill, []byte("v2\n"), 0o644)
	if _, err := r.CommitPaths([]string{"skills/a/SKILL.md"}, "skill a: v2", t0.Add(48*time.Hour)); err != nil {
		t.Fatal(err)
	}
	log, err := r.Log(skill, 0)
	if err != nil || len(log) != 2 || log[0].Message != "skill a: v2" {
		t.Fatalf("log = %+v, %v", log, err)
	}
	old, err := r.FileAt(h1, "skills/a/SKILL.md")
	if err != nil || string(old) != "v1\n" {
		t.Fatalf("FileAt = %q, %v", old, err)
	}
	if log, _ := r.Log(filepath.Join(dir, "other.txt"), 0); len(log) != 0 {
		t.Fatalf("other.txt was never committed, log = %v", log)
	}
	a, err := r.ActivitySince(t0.Add(24 * time.Hour))
	if err != nil || a.Recent != 1 || a.Last == nil || a.Last.Message != "skill a: v2" {
		t.Fatalf("activity = %+v, %v", a, err)
	}
	a, _ = r.ActivitySince(t0.Add(100 * time.Hour))
	if a.Recent != 0 || a.Last == nil || a.Last.Message != "skill a: v2" {
		t.Fatalf("activity after all commits = %+v", a)
	}
	os.Remove(skill)
	if _, err := r.CommitPaths([]string{skill}, "remove a", t0.Add(72*time.Hour)); err != nil {
		t.Fatalf("commit removal: %v", err)
	}
	if _, err := r.Rel("/elsewhere/x"); err == nil {
		t.Fatal("Rel outside the repository: want an error")
	}
	if _, err := Open(t.TempDir()); !errors.Is(err, ErrNoRepo) {
		t.Fatalf("Open outside a repo: err = %v", err)
	}
}

// A person's staged work in the same repository is neither committed nor
// unstaged by cerebro's commits.
func TestCommitPathsLeavesOtherStagedWorkAlone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r, _ := Init(dir)
	t0 := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("v1\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "skills", "a"), 0o755)
	skill := filepath.Join(dir, "skills", "a", "SKILL.md")
	os.WriteFile(skill, []byte("s1\n"), 0o644)
	if _, err := r.CommitPaths([]string{"mine.txt", "skills"}, "base", t0); err != nil {
		t.Fatal(err)
	}
	if _, err := r.CommitPaths([]string{"skills"}, "again", t0); !errors.Is(err, ErrNothingToCommit) {
		t.Fatalf("unchanged folder: err = %v", err)
	}
	// The person stages a change of their own.
	os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("v2 staged\n"), 0o644)
	wt, _ := r.repo.Worktree()
	if _, err := wt.Add("mine.txt"); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(skill, []byte("s2\n"), 0o644)
	h, err := r.CommitPaths([]string{skill}, "skill a", t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := r.FileAt(h, "mine.txt"); string(got) != "v1\n" {
		t.Fatalf("the person's staged change was committed: %q", got)
	}
	if got, _ := r.FileAt(h, "skills/a/SKILL.md"); string(got) != "s2\n" {
		t.Fatalf("skill at commit = %q", got)
	}
	st, _ := wt.Status()
	if s := st.File("mine.txt"); s.Staging != 'M' {
		t.Fatalf("mine.txt staging = %q, want still staged as modified", s.Staging)
	}
	if s := st.File("skills/a/SKILL.md"); s.Staging != ' ' && s.Staging != '?' || s.Worktree != ' ' && s.Worktree != '?' {
		t.Fatalf("skill status after commit = %+v, want clean", s)
	}
}
