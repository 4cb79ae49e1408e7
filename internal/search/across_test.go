package search

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// deskOf makes a desk of projects under a temp dir, each a memory_long
// folder with the given files, the first being this project; it returns
// this project's Memory with the others as its Desk.
func deskOf(t *testing.T, state string, projects ...map[string]string) *Memory {
	t.Helper()
	base := t.TempDir()
	var mems []Project
	for i, files := range projects {
		root := filepath.Join(base, fmt.Sprintf("p%d", i))
		for rel, text := range files {
			write(t, filepath.Join(root, ".claude", "memory_long", filepath.FromSlash(rel)), text)
		}
		mems = append(mems, Project{ID: fmt.Sprintf("p%d", i), Name: fmt.Sprintf("p%d", i), Root: root,
			Roots: Roots(root, "", "", ScopeProject), Params: Params{ChunkTokens: 400, OverlapTokens: 80}})
	}
	o := defaults()
	o.MMR = false
	// the other projects' memory is indexed off the search's clock (their
	// flushes, memhook index): here, before the first search
	for _, p := range mems[1:] {
		indexProject(t, state, p)
	}
	return &Memory{Base: mems[0].Root, Roots: mems[0].Roots, IndexDir: state, Params: mems[0].Params, Options: o,
		UpdateBudget: time.Minute, Desk: &Desk{ID: mems[0].ID, Others: mems[1:]}}
}

// indexProject brings a project's roots up to date in the desk index, as
// its memhook index does.
func indexProject(t *testing.T, state string, p Project) {
	t.Helper()
	m := &Memory{Base: p.Root, Roots: p.Roots, IndexDir: state, Params: p.Params}
	if err := m.Update(context.Background(), now, nil, func(RootReport) {}); err != nil {
		t.Fatal(err)
	}
}

func query(t *testing.T, m *Memory, q string) *Response {
	t.Helper()
	r, err := m.Query(context.Background(), q, 10, now, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func scoreOf(r *Response, path string) float64 {
	for _, x := range r.Results {
		if x.Path == path {
			return x.Score
		}
	}
	return -1
}

// One passage, one score: every root is scored with the desk's word
// statistics, so the same passage scores the same in every project
// whatever the rest of that project's memory says, and the same in a
// search of its own project (the default scope) as across the desk.
func TestDeskScoresOnePassageAlikeInEveryProject(t *testing.T) {
	// every note as long as the fact, so that every index has the same
	// average chunk length: what differs between the projects is which
	// words their other notes hold, and how many
	fact := "The nightly export to the warehouse stalls when the ledger lock is held; release it with ledgerctl unlock.\n"
	filler := func(word string, n int) map[string]string {
		files := map[string]string{"runbook.md": fact}
		for i := 0; i < n; i++ {
			files[fmt.Sprintf("notes/n%02d.md", i)] = strings.NewReplacer("ledger ", word+" ", "warehouse", word, "stalls", "meets").Replace(fact)
		}
		return files
	}
	m := deskOf(t, t.TempDir(), filler("ledger", 3), filler("warehouse", 30), filler("onboarding", 12))
	// "rotation" is in no note: what it takes from a score depends on how
	// rare the statistics make it
	const q = "ledger lock stalls the warehouse rotation"
	r := query(t, m, q)
	desk := []float64{scoreOf(r, ".claude/memory_long/runbook.md"), scoreOf(r, "p1:.claude/memory_long/runbook.md"), scoreOf(r, "p2:.claude/memory_long/runbook.md")}
	var alone []float64
	for i, p := range append([]Project{{ID: m.Desk.ID, Root: m.Base, Roots: m.Roots, Params: m.Params}}, m.Desk.Others...) {
		one := &Memory{Base: p.Root, Roots: p.Roots, IndexDir: m.IndexDir, Params: p.Params, Options: m.Options, UpdateBudget: time.Minute}
		alone = append(alone, scoreOf(query(t, one, q), ".claude/memory_long/runbook.md"))
		if desk[i] <= 0 || alone[i] <= 0 {
			t.Fatalf("the runbook of project %d not found: desk %v, alone %v", i, desk, alone)
		}
	}
	if desk[0] != desk[1] || desk[1] != desk[2] {
		t.Errorf("desk statistics: one passage scores %v in three projects", desk)
	}
	for i := range desk {
		if desk[i] != alone[i] {
			t.Errorf("project %d: the passage scores %v across the desk, %v in its own search", i, desk[i], alone[i])
		}
	}
}

// The default scope and the desk rank a project's passages alike: the
// order of this project's results across projects is the order of its
// own search, at the same scores, on real notes.
func TestDeskRanksOwnResultsAsTheDefaultScope(t *testing.T) {
	notes := map[string]string{
		"deploy.md":    "# Deploy\n\nThe deploy runs from CI; the staging host is stg-2.\nRoll back with the previous image tag.\n",
		"db.md":        "# Database\n\nMigrations run before the deploy, never during it.\nThe staging database is a copy of last night's.\n",
		"oncall.md":    "# On call\n\nA failed deploy pages the on-call person; staging alerts do not.\n",
		"unrelated.md": "# Lunch\n\nThe canteen closes at two.\n",
	}
	other := map[string]string{
		"deploy.md": "# Deploy\n\nOur deploy goes through staging first, always, and the staging host is stg-9.\n",
	}
	m := deskOf(t, t.TempDir(), notes, other, other)
	const q = "staging host for the deploy"
	across := query(t, m, q)
	own := &Memory{Base: m.Base, Roots: m.Roots, IndexDir: m.IndexDir, Params: m.Params, Options: m.Options, UpdateBudget: time.Minute}
	alone := query(t, own, q)
	var mine []string
	for _, x := range across.Results {
		if x.Project == m.Desk.ID {
			mine = append(mine, fmt.Sprintf("%s %.4f", x.Citation, x.Score))
		}
	}
	var want []string
	for _, x := range alone.Results {
		want = append(want, fmt.Sprintf("%s %.4f", x.Citation, x.Score))
	}
	if len(want) < 2 || strings.Join(mine, "\n") != strings.Join(want[:min(len(want), len(mine))], "\n") {
		t.Fatalf("this project's results across the desk:\n%s\nits own search:\n%s", strings.Join(mine, "\n"), strings.Join(want, "\n"))
	}
}

// Each result names its project; another project's path and citation
// carry its id, and Get reads them back; this project's stay plain.
func TestDeskLabelsAndGetsOtherProjects(t *testing.T) {
	m := deskOf(t, t.TempDir(),
		map[string]string{"db.md": "# Database\n\nWe keep sessions in Redis.\n"},
		map[string]string{"db.md": "# Database\n\nBilling runs on PostgreSQL 15, host db-billing-1.\n"},
		map[string]string{"other.md": "# Other\n\nNothing about stores here.\n"},
	)
	r := query(t, m, "postgresql database host")
	if len(r.Results) == 0 || r.Results[0].Project != "p1" || r.Results[0].Citation != "p1:.claude/memory_long/db.md#L1-L3" || r.Results[0].Path != "p1:.claude/memory_long/db.md" {
		t.Fatalf("first result %+v", r.Results)
	}
	if r.Across == nil || r.Across.Projects != 3 {
		t.Fatalf("report %+v", r.Across)
	}
	for _, x := range r.Results {
		if x.Project == "p0" && strings.Contains(x.Citation, ":") {
			t.Errorf("this project's citation carries a project: %s", x.Citation)
		}
	}
	got, err := m.Get(r.Results[0].Path, 3, 1)
	if err != nil || got.Text != "Billing runs on PostgreSQL 15, host db-billing-1.\n" || got.Path != "p1:.claude/memory_long/db.md" {
		t.Fatalf("get: %+v %v", got, err)
	}
	if got, err := m.Get("p0:.claude/memory_long/db.md", 3, 1); err != nil || got.Text != "We keep sessions in Redis.\n" {
		t.Fatalf("get of this project by its id: %+v %v", got, err)
	}
	if _, err := m.Get("p1:../../p0/.claude/memory_long/db.md", 1, 0); err == nil {
		t.Fatal("a path out of another project's roots was read")
	}
	if _, err := m.Get("nobody:.claude/memory_long/db.md", 1, 0); err == nil {
		t.Fatal("a path of an unknown project was read")
	}
}

// Another project's new note is found once that project's index is
// brought up to date (its flush, memhook index): no search waits on it.
func TestDeskSeesOtherProjectsChanges(t *testing.T) {
	m := deskOf(t, t.TempDir(),
		map[string]string{"a.md": "# A\n\nAlpha.\n"},
		map[string]string{"b.md": "# B\n\nBeta.\n"},
	)
	query(t, m, "alpha beta")
	other := m.Desk.Others[0]
	write(t, filepath.Join(other.Root, ".claude", "memory_long", "new.md"), "# New\n\nThe quokka migration is done.\n")
	indexProject(t, m.IndexDir, other)
	if r := query(t, m, "quokka"); len(r.Results) != 1 || r.Results[0].Path != "p1:.claude/memory_long/new.md" {
		t.Fatalf("new note of another project: %+v", r.Results)
	}
}

// A project whose memory was never indexed is indexed within the
// search's update budget; past it, it is not waited for: the search
// answers from what is indexed and names what it could not search.
func TestDeskNamesWhatIsNotIndexed(t *testing.T) {
	m := deskOf(t, t.TempDir(),
		map[string]string{"a.md": "# A\n\nThe otter.\n"},
		map[string]string{"b.md": "# B\n\nThe otter too.\n"},
	)
	query(t, m, "otter") // this project's memory indexed, as its flushes do
	// no time left to index a project never indexed: it is named, not
	// waited for
	m.UpdateBudget = time.Nanosecond
	late := filepath.Join(t.TempDir(), "p2")
	write(t, filepath.Join(late, ".claude", "memory_long", "c.md"), "# C\n\nAn otter again.\n")
	m.Desk.Others = append(m.Desk.Others, Project{ID: "p2", Name: "p2", Root: late,
		Roots: Roots(late, "", "", ScopeProject), Params: m.Params})
	r := query(t, m, "otter")
	var got []string
	for _, x := range r.Results {
		got = append(got, x.Project)
	}
	if strings.Join(got, ",") != "p0,p1" && strings.Join(got, ",") != "p1,p0" {
		t.Fatalf("results from %v: %+v", got, r.Results)
	}
	if r.Across.Searched != 2 || len(r.Across.NotIndexed) != 1 || r.Across.NotIndexed[0].Project != "p2" {
		t.Fatalf("report %+v", r.Across)
	}
	if notes := strings.Join(r.Notes, "\n"); !strings.Contains(notes, "p2: .claude/memory_long is not indexed yet") {
		t.Fatalf("notes %v", r.Notes)
	}
	if line := r.Across.Line(); !strings.Contains(line, "not yet indexed in 1 (p2)") {
		t.Fatalf("line %q", line)
	}
}

// Asked from a project with no memory at all, with nothing warmed but
// the other projects' indexes (their flushes, memhook index), a search
// across projects finds the answer in the project that holds it first.
func TestDeskFromAnEmptyProjectFindsTheAnswer(t *testing.T) {
	m := deskOf(t, t.TempDir(),
		map[string]string{},
		map[string]string{"daily/2026-03-02.md": "# 2026-03-02\n\n## 10:00 · session a · auto\n\n### Done\n- Silenced the Dialyzer false positive on the Ecto changeset with a @dialyzer nowarn attribute.\n"},
		map[string]string{"daily/2026-03-03.md": "# 2026-03-03\n\n## 11:00 · session b · auto\n\n### Done\n- Added the CSV export of invoices.\n"},
	)
	r := query(t, m, "how did we get past the dialyzer false positive")
	if len(r.Results) == 0 || r.Results[0].Project != "p1" || !strings.Contains(r.Results[0].Snippet, "nowarn") {
		t.Fatalf("results %+v, notes %v", r.Results, r.Notes)
	}
	if r.Across.Searched != 3 || len(r.Across.NotIndexed) != 0 {
		t.Fatalf("report %+v", r.Across)
	}
}
