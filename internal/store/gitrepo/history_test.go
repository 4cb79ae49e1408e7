package gitrepo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDiffAndRestore(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r, err := Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	skill := filepath.Join(dir, "skills", "a", "SKILL.md")
	extra := filepath.Join(dir, "skills", "a", "notes.md")
	other := filepath.Join(dir, "skills", "b", "SKILL.md")
	os.MkdirAll(filepath.Dir(skill), 0o755)
	os.MkdirAll(filepath.Dir(other), 0o755)
	os.WriteFile(skill, []byte("line one\nv1\n"), 0o644)
	os.WriteFile(other, []byte("b1\n"), 0o644)
	h1, err := r.CommitPaths([]string{"skills"}, "v1", t0)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(skill, []byte("line one\nv2\n"), 0o644)
	os.WriteFile(extra, []byte("new file\n"), 0o644)
	os.WriteFile(other, []byte("b2\n"), 0o644)
	h2, err := r.CommitPaths([]string{"skills"}, "v2", t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	d, err := r.Diff("skills/a", h1, h2)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(d, "-v1") || !strings.Contains(d, "+v2") || !strings.Contains(d, "notes.md") || strings.Contains(d, "b2") {
		t.Fatalf("diff narrowed to skills/a:\n%s", d)
	}
	if p, _ := r.Parent(h2); p != h1 {
		t.Fatalf("parent %s", p)
	}
	if first, _ := r.Diff("skills/a", "", h1); !strings.Contains(first, "+v1") {
		t.Fatalf("diff from the empty tree:\n%s", first)
	}
	h3, err := r.RestorePath(filepath.Join(dir, "skills", "a"), h1, "revert a", t0.Add(2*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(skill); string(b) != "line one\nv1\n" {
		t.Fatalf("restored content %q", b)
	}
	if _, err := os.Stat(extra); !os.IsNotExist(err) {
		t.Fatal("a file born after the restored version must go")
	}
	if b, _ := os.ReadFile(other); string(b) != "b2\n" {
		t.Fatal("restore touched another path")
	}
	log, _ := r.Log("", 0)
	if len(log) != 3 || log[0].Hash != h3 || log[2].Hash != h1 {
		t.Fatalf("restore must add a commit, not rewrite: %+v", log)
	}
}
