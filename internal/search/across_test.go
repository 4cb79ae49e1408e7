package search

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
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
	return &Memory{Base: mems[0].Root, Roots: mems[0].Roots, IndexDir: state, Params: mems[0].Params, Options: o,
		UpdateBudget: time.Minute, Desk: &Desk{ID: mems[0].ID, Others: mems[1:], Budget: time.Minute}}
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

// The normalisation, pinned: the same passage scores the same in every
// project whatever the rest of that project's memory says, because every
// index is scored with the whole desk's word statistics. Searched in each
// project alone (each index's own statistics) it does not.
func TestDeskScoresOnePassageAlikeInEveryProject(t *testing.T) {
	// every note as long as the fact, so that every index has the same
	// average chunk length (BM25 measures a chunk against its own index's
	// average): what differs between the projects is which words their
	// other notes hold, and how many
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
	if alone[0] == alone[1] || alone[1] == alone[2] {
		t.Errorf("each project alone gave the passage scores %v: the test shows nothing", alone)
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

// A desk of generated projects: pruning by the catalog's bounds answers
// every query as searching every project does, and opens fewer.
func TestDeskPruningKeepsEveryResult(t *testing.T) { checkPruning(t, topChunks) }

// The same with word lists shorter than the words' chunks, so that most
// chunks are bounded by their words' rests: still every result.
func TestDeskPruningKeepsEveryResultWithShortLists(t *testing.T) {
	defer func(k int) { topChunks = k }(topChunks)
	topChunks = 3
	checkPruning(t, 3)
}

func checkPruning(t *testing.T, k int) {
	r := rand.New(rand.NewSource(3))
	vocab := strings.Fields("deploy kafka retention cluster migration postgres schema index query latency budget invoice customer release rollback проект сервер база данных миграция релиз отчёт встреча решение задача бюджет клиент команда ledger export warehouse lock")
	var projects []map[string]string
	for p := 0; p < 8; p++ {
		files := map[string]string{}
		for n := 0; n < 12; n++ {
			var b strings.Builder
			fmt.Fprintf(&b, "# Page %d\n\n", n)
			for w := 0; w < 30+r.Intn(60); w++ {
				b.WriteString(vocab[r.Intn(len(vocab))] + " ")
				if w%11 == 10 {
					b.WriteString("\n")
				}
			}
			files[fmt.Sprintf("p%d.md", n)] = b.String()
		}
		// a word only this project says
		files["own.md"] = fmt.Sprintf("# Own\n\nThe codename of this project is zeta%d.\n", p)
		// a page a query may name, whose hits are boosted
		files[vocab[p]+" "+vocab[p+1]+".md"] = fmt.Sprintf("# Notes\n\n%s %s, in short.\n", vocab[p+2], vocab[p])
		projects = append(projects, files)
	}
	state := t.TempDir()
	m := deskOf(t, state, projects...)
	ex := deskOf(t, t.TempDir(), projects...)
	ex.Desk.Exhaustive = true
	var queries []string
	for i := 0; i < 25; i++ {
		queries = append(queries, vocab[r.Intn(len(vocab))]+" "+vocab[r.Intn(len(vocab))])
	}
	queries = append(queries, "codename zeta5", "zeta3 kafka retention", "проект zeta6 миграция")
	for p := 0; p < 8; p++ {
		queries = append(queries, vocab[p]+" "+vocab[p+1]) // names a page
	}
	query(t, m, "warm the catalog") // the first search catalogues every index
	ruledOut, indexes := 0, 0
	for _, q := range queries {
		a, b := query(t, m, q), query(t, ex, q)
		if got, want := cites(a), cites(b); got != want {
			t.Errorf("lists of %d: %q: pruned\n%s\nexhaustive\n%s", k, q, got, want)
		}
		ruledOut += a.Across.RuledOut
		indexes += a.Across.Indexes
		if a.Across.Indexes > b.Across.Indexes {
			t.Errorf("%q: pruning searched %d indexes, every project %d", q, a.Across.Indexes, b.Across.Indexes)
		}
	}
	if ruledOut == 0 {
		t.Error("no project was ever ruled out: the bounds prune nothing")
	}
	if indexes == 0 {
		t.Error("no other project's index was searched")
	}
}

func cites(r *Response) string {
	var b strings.Builder
	for _, x := range r.Results {
		fmt.Fprintf(&b, "%s %.4f\n", x.Citation, x.Score)
	}
	return b.String()
}

// Another project's new note is found at once (its folder changed, so
// the catalog's view of it no longer holds), and so is an edit in place
// of one of its recent files.
func TestDeskSeesOtherProjectsChanges(t *testing.T) {
	m := deskOf(t, t.TempDir(),
		map[string]string{"a.md": "# A\n\nAlpha.\n"},
		map[string]string{"b.md": "# B\n\nBeta.\n"},
	)
	query(t, m, "alpha beta")
	other := m.Desk.Others[0].Root
	write(t, filepath.Join(other, ".claude", "memory_long", "new.md"), "# New\n\nThe quokka migration is done.\n")
	if r := query(t, m, "quokka"); len(r.Results) != 1 || r.Results[0].Path != "p1:.claude/memory_long/new.md" {
		t.Fatalf("new note of another project: %+v", r.Results)
	}
	later := now.Add(time.Hour)
	p := filepath.Join(other, ".claude", "memory_long", "b.md")
	os.WriteFile(p, []byte("# B\n\nBeta, and the wombat.\n"), 0o644)
	os.Chtimes(p, later, later)
	if r := query(t, m, "wombat"); len(r.Results) != 1 || r.Results[0].Path != "p1:.claude/memory_long/b.md" {
		t.Fatalf("edited note of another project: %+v", r.Results)
	}
}

// Out of budget, the other projects are named as not reached; this
// project's memory is still searched.
func TestDeskBudgetNamesWhatItDidNotReach(t *testing.T) {
	m := deskOf(t, t.TempDir(),
		map[string]string{"a.md": "# A\n\nThe otter.\n"},
		map[string]string{"b.md": "# B\n\nThe otter too.\n"},
		map[string]string{"c.md": "# C\n\nAn otter again.\n"},
	)
	m.Desk.Budget = time.Nanosecond
	r := query(t, m, "otter")
	if len(r.Results) != 1 || r.Results[0].Project != "p0" {
		t.Fatalf("results %+v", r.Results)
	}
	if got := strings.Join(r.Across.NotReached, ","); got != "p1,p2" {
		t.Fatalf("not reached %q; notes %v", got, r.Notes)
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "p1, p2") {
		t.Fatalf("notes %v", r.Notes)
	}
}

// The catalog knows which indexes hold a page a query names (so that
// their bound takes the boost such a page's hits get): every word of the
// name among the query's, a day's log never.
func TestCatalogKnowsNamedPages(t *testing.T) {
	state := t.TempDir()
	m := deskOf(t, state,
		map[string]string{"a.md": "# A\n\nAlpha.\n"},
		map[string]string{"Kafka retention.md": "# Kafka\n\nSeven days.\n", "daily/2026-11-30.md": "# day\n\nkafka\n"},
		map[string]string{"Kafka.md": "# Kafka\n\nThe broker.\n"},
	)
	query(t, m, "warm the catalog")
	cat, err := openCatalog(state)
	if err != nil {
		t.Fatal(err)
	}
	defer cat.close()
	entries, err := cat.entries(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ids, byProject := map[int64]bool{}, map[int64]string{}
	for _, p := range m.Desk.Others {
		for _, r := range p.Roots {
			if e := entries[IndexPath(state, r)]; e != nil {
				ids[e.id], byProject[e.id] = true, p.ID
			}
		}
	}
	for q, want := range map[string]string{
		"the kafka retention policy": "p1 p2",
		"kafka":                      "p2",
		"retention":                  "",
		"2026 11 30":                 "",
	} {
		named, err := cat.named(context.Background(), ids, queryWords(q))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for id, ok := range named {
			if ok {
				got = append(got, byProject[id])
			}
		}
		sort.Strings(got)
		if strings.Join(got, " ") != want {
			t.Errorf("%q names a page in %q, want %q", q, strings.Join(got, " "), want)
		}
	}
}
