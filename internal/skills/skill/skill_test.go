package skill

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

var t0 = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

func TestLocate(t *testing.T) {
	for path, want := range map[string]string{
		"/p/skills/use-tables/SKILL.md":              "use-tables",
		"/p/.claude/skills/relearn/refs/x.md":        "relearn",
		"/p/skills/a/skills/inner/SKILL.md":          "inner",
		"/home/u/.claude/plugins/cache/c/skills/m/f": "m",
	} {
		ref, ok := Locate(path)
		if !ok || ref.Name != want {
			t.Errorf("Locate(%q) = %+v %v, want %s", path, ref, ok, want)
		}
	}
	for _, path := range []string{"/p/skills/SKILL.md", "/p/src/main.go", "/p/skills/.hidden/x", "/p/myskills/a/b"} {
		if ref, ok := Locate(path); ok {
			t.Errorf("Locate(%q) = %+v, want no skill", path, ref)
		}
	}
}

func TestCommitInitsAtSkillsRootWhenNoRepo(t *testing.T) {
	root := filepath.Join(t.TempDir(), "plugin", "skills")
	f := filepath.Join(root, "use-tables", "SKILL.md")
	testfile.Write(t, f, "v1\n")
	ref, _ := Locate(f)
	res, err := Commit(ref, "Write", t0)
	if err != nil || res.Commit == "" || !res.Initialized || res.Repo != root {
		t.Fatalf("%+v %v", res, err)
	}
	if again, err := Commit(ref, "Write", t0); err != nil || again.Commit != "" {
		t.Fatalf("an unchanged file commits nothing: %+v %v", again, err)
	}
	log, _ := Log(ref, 0)
	if len(log) != 1 || log[0].Message != "skill use-tables: Write use-tables/SKILL.md" {
		t.Fatalf("%+v", log)
	}
}

func TestCommitIntoHoldingRepoThenDiffAndRevert(t *testing.T) {
	proj := t.TempDir()
	if _, err := gitrepo.Init(proj); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(proj, ".claude", "skills", "relearn", "SKILL.md")
	testfile.Write(t, f, "---\nname: relearn\n---\nfirst\n")
	testfile.Write(t, filepath.Join(proj, "unrelated.go"), "package x\n")
	ref, _ := Locate(f)
	if res, err := Commit(ref, "Write", t0); err != nil || res.Initialized || res.Repo != proj {
		t.Fatalf("must commit into the project's repository: %+v %v", res, err)
	}
	testfile.Write(t, f, "---\nname: relearn\n---\nsecond\n")
	if _, err := Commit(ref, "Edit", t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	named, err := Named(filepath.Join(proj, ".claude", "skills"), "relearn")
	if err != nil {
		t.Fatal(err)
	}
	d, err := Diff(named, "")
	if err != nil || !strings.Contains(d, "-first") || !strings.Contains(d, "+second") {
		t.Fatalf("diff:\n%s %v", d, err)
	}
	res, err := Revert(named, t0.Add(2*time.Minute))
	if err != nil || res.Commit == "" {
		t.Fatalf("%+v %v", res, err)
	}
	if b, _ := os.ReadFile(f); !strings.Contains(string(b), "first") {
		t.Fatalf("reverted content %q", b)
	}
	log, _ := Log(named, 0)
	if len(log) != 3 || !strings.HasPrefix(log[0].Message, "skill relearn: revert to ") {
		t.Fatalf("revert is a new commit: %+v", log)
	}
	r, _ := gitrepo.Open(proj)
	if all, _ := r.Log("unrelated.go", 0); len(all) != 0 {
		t.Fatal("a skill commit swept in an unrelated file")
	}
	if _, err := Named(filepath.Join(proj, ".claude", "skills"), "../x"); err == nil {
		t.Fatal("a path is not a skill name")
	}
	lone := filepath.Join(t.TempDir(), "skills", "lone", "SKILL.md")
	testfile.Write(t, lone, "only\n")
	lr, _ := Locate(lone)
	Commit(lr, "Write", t0)
	if _, err := Revert(lr, t0); !errors.Is(err, ErrNoPrevious) {
		t.Fatalf("revert of a single version: %v", err)
	}
}
