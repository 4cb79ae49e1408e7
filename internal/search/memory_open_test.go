package search

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/hint"
)

// setupFor is the project's memory in scope project, with the settings'
// defaults.
func setupFor(t *testing.T, proj string) MemorySetup {
	t.Helper()
	return MemorySetup{Project: proj, Scope: "project", IndexDir: t.TempDir(), Desk: t.TempDir(), Home: t.TempDir(),
		Params: Params{ChunkTokens: 400, OverlapTokens: 80}, Options: defaults(), UpdateBudget: 2 * time.Second}
}

// What the user can put right comes back with a hint: a --root that is no
// folder, a scope that does not exist. The settings passed are the
// memory's.
func TestOpenMemoryRefusesWithAHint(t *testing.T) {
	s := setupFor(t, t.TempDir())
	s.Options.Citations = CitationsOn
	bad := s
	bad.Root = filepath.Join(s.Project, "missing")
	if _, _, err := OpenMemory(bad); !strings.Contains(hint.Of(err), "--root") {
		t.Fatalf("missing --root: %v", err)
	}
	bad = s
	bad.Scope = "galaxy"
	if _, _, err := OpenMemory(bad); !strings.Contains(hint.Of(err), "--scope") {
		t.Fatalf("bad scope: %v", err)
	}
	m, _, err := OpenMemory(s)
	if err != nil || m.Desk != nil || m.Base != s.Project || len(m.Roots) == 0 {
		t.Fatalf("project scope: %+v, %v", m, err)
	}
	if m.UpdateBudget != s.UpdateBudget || m.Options.Citations != CitationsOn || m.Options.Base != s.Project || m.Params != s.Params {
		t.Fatalf("the settings are not the memory's: %+v", m)
	}
}

// A result of another project says so in the text; the across line
// counts what was searched, skipped and kept private.
func TestResponseTextLabelsOtherProjects(t *testing.T) {
	r := &Response{Mode: ModeBM25, Results: []Result{
		{Path: "daily/a.md", Citation: "daily/a.md#L1-L2", Score: 1, Snippet: "own", Project: "me"},
		{Path: "other:daily/b.md", Citation: "other:daily/b.md#L3-L4", Score: 0.5, Snippet: "theirs", Project: "other"},
	}, Across: &AcrossReport{Self: "me", Projects: 3, Searched: 2, NotIndexed: []Skipped{{Project: "late", Reason: "x"}}, Skipped: []Skipped{{Project: "gone"}}, OptedOut: 1}}
	var b bytes.Buffer
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{
		"across projects: 2 of 3 projects searched, memory not yet indexed in 1 (late), 1 skipped (gone), 1 keep their memory to themselves\n",
		"1. daily/a.md#L1-L2  (score 1.000, bm25)\n   own\n",
		"2. other:daily/b.md#L3-L4  [another project: other]  (score 0.500, bm25)\n   theirs\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "daily/a.md#L1-L2  [another") {
		t.Errorf("its own result labelled as another project's:\n%s", got)
	}
	b.Reset()
	(&Response{}).WriteText(&b)
	if b.String() != "no results\n" {
		t.Errorf("empty: %q", b.String())
	}
}
