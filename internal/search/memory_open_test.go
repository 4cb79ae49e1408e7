package search

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/org/registry"
)

func setupFor(t *testing.T, proj string, env map[string]string) MemorySetup {
	t.Helper()
	getenv := func(k string) string { return env[k] }
	return MemorySetup{Project: proj, Scope: "project", Config: config.Load(getenv, proj), IndexDir: t.TempDir(),
		Desk: t.TempDir(), Registry: filepath.Join(t.TempDir(), "registry.json"), Getenv: getenv}
}

// What the user can put right comes back with a hint: a --root that is no
// folder, a scope that does not exist.
func TestOpenMemoryRefusesWithAHint(t *testing.T) {
	s := setupFor(t, t.TempDir(), map[string]string{"CEREBRO_CONFIG": filepath.Join(t.TempDir(), "none")})
	bad := s
	bad.Root = filepath.Join(s.Project, "missing")
	var se *SetupError
	if _, _, err := OpenMemory(bad); !errors.As(err, &se) || !strings.Contains(se.Hint(), "--root") {
		t.Fatalf("missing --root: %v", err)
	}
	bad = s
	bad.Scope = "galaxy"
	if _, _, err := OpenMemory(bad); !errors.As(err, &se) || !strings.Contains(se.Hint(), "--scope") {
		t.Fatalf("bad scope: %v", err)
	}
	m, _, err := OpenMemory(s)
	if err != nil || m.Desk != nil || m.Base != s.Project || len(m.Roots) == 0 {
		t.Fatalf("project scope: %+v, %v", m, err)
	}
	if m.UpdateBudget != updateBudget(s.Config) || m.Options.Citations != s.Config.Search.Citations {
		t.Fatalf("the settings are not the memory's: %+v", m)
	}
}

// The desk of a search across projects holds only the registered projects
// that share their memory: one that opted out is counted, not named; one
// whose folder is gone is named with the reason; this project is not
// among the others and takes its registry id; a registry that does not
// parse is registry.ErrCorrupt.
func TestOpenMemoryDeskKeepsToWhatIsShared(t *testing.T) {
	dir := t.TempDir()
	self, shares, private := filepath.Join(dir, "self"), filepath.Join(dir, "shares"), filepath.Join(dir, "private")
	for _, p := range []string{self, shares, private} {
		os.MkdirAll(filepath.Join(p, ".claude"), 0o755)
	}
	os.WriteFile(filepath.Join(private, ".claude", "cerebro.toml"), []byte("share_across_projects = false\n"), 0o644)
	s := setupFor(t, self, map[string]string{"CEREBRO_CONFIG": filepath.Join(dir, "none"), "HOME": dir})
	s.Scope = "projects"
	reg := registry.File{Projects: []registry.Project{
		{ID: "me", Path: self}, {ID: "shares", Path: shares}, {ID: "private", Path: private}, {ID: "gone", Path: filepath.Join(dir, "gone")},
	}}
	data, _ := json.Marshal(reg)
	os.WriteFile(s.Registry, data, 0o644)
	m, _, err := OpenMemory(s)
	if err != nil {
		t.Fatal(err)
	}
	d := m.Desk
	if d == nil || d.ID != "me" || len(d.Others) != 1 || d.Others[0].ID != "shares" || d.OptedOut != 1 ||
		len(d.Skipped) != 1 || d.Skipped[0].Project != "gone" || !strings.Contains(d.Skipped[0].Reason, "cannot be reached") {
		t.Fatalf("desk: %+v", d)
	}
	os.WriteFile(s.Registry, []byte("{not json"), 0o644)
	if _, _, err := OpenMemory(s); !errors.Is(err, registry.ErrCorrupt) {
		t.Fatalf("corrupt registry: %v", err)
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

// updateBudget is the setting as a duration.
func updateBudget(cfg *config.Effective) time.Duration {
	return time.Duration(cfg.Search.UpdateBudgetMS) * time.Millisecond
}
