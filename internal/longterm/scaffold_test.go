package longterm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/planfact"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

func TestOnCreatesScaffoldThatLintsClean(t *testing.T) {
	s := newProject(t)
	for _, f := range []string{SchemaFile, IndexFile, LogFile, CoreFile, planfact.FileName, GraphFile, RawDir, WikiDir, PrivateDir} {
		if _, err := os.Stat(s.Path(f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	found, err := s.Lint(LintOptions{CoreMaxChars: 2000, Project: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 0 {
		t.Fatalf("a fresh scaffold must lint clean (it opens as an Obsidian vault without broken links): %+v", found)
	}
	golden(t, "scaffold-index.md", []byte(testfile.Read(t, s.Path(IndexFile))))
	golden(t, "scaffold-graph.json", []byte(testfile.Read(t, s.Path(GraphFile))))
	if l := logLines(t, s); len(l) != 1 || !strings.Contains(l[0], "· long on · created") {
		t.Fatalf("log: %q", l)
	}
}

func TestOnIsIdempotentAndKeepsEditedFiles(t *testing.T) {
	s := newProject(t)
	edited := "---\ntype: schema\n---\n\n# my own rules\n"
	testfile.Write(t, s.Path(SchemaFile), edited)
	os.Remove(s.Path(CoreFile))
	res, err := s.On("demo", now)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(res.Created, ",") != CoreFile {
		t.Fatalf("created %v, want only the missing CORE.md", res.Created)
	}
	if !contains(res.Kept, SchemaFile) || !contains(res.Kept, IndexFile) {
		t.Fatalf("kept %v", res.Kept)
	}
	if got := testfile.Read(t, s.Path(SchemaFile)); got != edited {
		t.Fatalf("SCHEMA.md was rewritten:\n%s", got)
	}
}

func TestOffKeepsFilesAndMarksInactive(t *testing.T) {
	s := newProject(t)
	l := project.Layout{Root: s.Project}
	if !l.LongActive() {
		t.Fatal("active after on")
	}
	if err := s.Off(now); err != nil {
		t.Fatal(err)
	}
	if l.LongActive() {
		t.Fatal("still active after off")
	}
	st, err := s.Status()
	if err != nil {
		t.Fatal(err)
	}
	if !st.Exists || st.Active || len(st.Missing) != 0 {
		t.Fatalf("status after off: %+v", st)
	}
	if _, err := s.On("demo", now); err != nil {
		t.Fatal(err)
	}
	if !l.LongActive() {
		t.Fatal("on again must lift the off marker")
	}
}

func TestStatusCountsAndPlanFactValidity(t *testing.T) {
	s := newProject(t)
	testfile.Write(t, s.Path("wiki/a.md"), "---\ntype: topic\n---\n# a\n")
	testfile.Write(t, s.Path("wiki/_private/b.md"), "---\ntype: digest\n---\n# b\n")
	testfile.Write(t, s.Path(planfact.FileName), "---\ntype: plan-fact\n---\n")
	st, err := s.Status()
	if err != nil {
		t.Fatal(err)
	}
	if st.Pages != 2 || st.PrivatePages != 1 || st.PlanFactValid || len(st.PlanFactErrors) == 0 {
		t.Fatalf("%+v", st)
	}
	if empty, _ := New(t.TempDir()).Status(); empty.Exists {
		t.Fatal("a project without the scaffold must not exist")
	}
}

func TestPagePathRefusesOutside(t *testing.T) {
	s := newProject(t)
	outside := t.TempDir()
	if err := os.Symlink(outside, s.Path("wiki/out")); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	for _, bad := range []string{"../x.md", "wiki/../../x.md", filepath.Join(outside, "x.md"), "raw/a.md", "wiki/a.txt", ".obsidian/a.md", "wiki/out/x.md", ""} {
		if _, _, err := s.PagePath(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	rel, abs, err := s.PagePath(`wiki/Решения.md`)
	if err != nil || rel != "wiki/Решения.md" || abs != s.Path("wiki/Решения.md") {
		t.Fatalf("%q %q %v", rel, abs, err)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
