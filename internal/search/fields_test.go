package search

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func TestTitleAliasesAndHeadingsRankTheirNote(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "Воскресная уборка.md"), "---\naliases: [Sunday chores]\n---\n\nПылесосим, моем полы, выносим мусор.\n")
	write(t, filepath.Join(dir, "Дневник.md"), "В воскресенье была уборка в гараже, воскресная ярмарка и уборка листьев.\nУборка снега.\n")
	write(t, filepath.Join(dir, "Ops.md"), "# Ops\n\n## Rotating the signing keys\n\nOpen the vault, run the script, wait; the keys are rotating.\n")
	write(t, filepath.Join(dir, "Misc.md"), "Signing the lease; rotating shifts; keys to the office.\n")
	ix := indexed(t, t.TempDir(), Root{Dir: dir, Kind: KindDir}, Params{})
	for q, want := range map[string]string{
		"воскресной уборке":     "Воскресная уборка.md",
		"sunday chores":         "Воскресная уборка.md",
		"rotating signing keys": "Ops.md",
	} {
		r, err := Search(context.Background(), []*Index{ix}, q, defaults())
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Results) == 0 || !strings.Contains(r.Results[0].Citation, want) {
			t.Errorf("%q: top %v, want %s", q, r.Results, want)
		}
	}
}

func TestLinkListsLoseAndNoPageFillsTheTop(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "- [[Kafka retention %d]]\n", i)
		if i%6 == 5 {
			b.WriteString(strings.Repeat("filler words about nothing in particular here. ", 8) + "\n")
		}
	}
	write(t, filepath.Join(dir, "Index.md"), b.String())
	write(t, filepath.Join(dir, "Kafka.md"), "Kafka retention is seven days on the events topic.\n")
	for _, n := range []string{"Ops", "Audit", "Billing", "Search"} {
		write(t, filepath.Join(dir, n+".md"), n+": we changed kafka retention for the "+n+" topic.\n")
	}
	ix := indexed(t, t.TempDir(), Root{Dir: dir, Kind: KindDir}, Params{ChunkTokens: 100, OverlapTokens: 10})
	o := defaults()
	o.MMR = false
	r, err := Search(context.Background(), []*Index{ix}, "kafka retention", o)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Results) < 5 || !strings.HasSuffix(r.Results[0].Path, "Kafka.md") {
		t.Fatalf("the explaining note should lead the link list: %v", paths(r))
	}
	n := 0
	for _, x := range r.Results[:5] {
		if strings.HasSuffix(x.Path, "Index.md") {
			n++
		}
	}
	if n > 2 {
		t.Errorf("the link list holds %d of the top 5: %v", n, paths(r))
	}
	// asked for by name, it may fill the top
	r, _ = Search(context.Background(), []*Index{ix}, "index kafka retention", o)
	n = 0
	for _, x := range r.Results[:min(5, len(r.Results))] {
		if strings.HasSuffix(x.Path, "Index.md") {
			n++
		}
	}
	if n < 3 {
		t.Errorf("a query naming Index.md should get more of it: %v", paths(r))
	}
}

// FTS5 picks the candidates with the field weights, which the desk index
// stores: an index made with other weights (before a weight changed) takes
// the current ones when it is next opened, without being indexed again,
// and its candidates' order follows them.
func TestChangedFieldWeightsReachTheIndex(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	write(t, filepath.Join(dir, "walrus.md"), "Notes from the harbour office.\n")
	write(t, filepath.Join(dir, "census.md"), "The census counts every walrus on the rocks, walrus by walrus.\n")
	for i, s := range []string{"The market sells bread.", "A meeting about budgets.", "Trains were late.", "The cat slept."} {
		write(t, filepath.Join(dir, fmt.Sprintf("other%d.md", i)), s+"\n")
	}
	root := Root{Dir: dir, Kind: KindDir}
	p := Params{ChunkTokens: 400, OverlapTokens: 80}
	open := func() *Index {
		t.Helper()
		ix, err := Open(state, root, p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ix.Update(context.Background(), now, nil); err != nil {
			t.Fatal(err)
		}
		return ix
	}
	first := func(ix *Index) string {
		t.Helper()
		var rel string
		err := ix.db.QueryRow(`SELECT c.path FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid
			WHERE chunks_fts MATCH 'walrus' ORDER BY rank LIMIT 1`).Scan(&rel)
		if err != nil {
			t.Fatal(err)
		}
		return rel
	}
	ix := open()
	if got := first(ix); got != "walrus.md" {
		t.Fatalf("with the title weighed: %s first, want walrus.md", got)
	}
	// the index as weights of before left it: the title not weighed
	stale := ftsRank(0, 0)
	for _, q := range []string{`INSERT INTO chunks_fts(chunks_fts, rank) VALUES('rank', ?)`, `UPDATE meta SET value=? WHERE key='rank'`} {
		if _, err := ix.db.Exec(q, stale); err != nil {
			t.Fatal(err)
		}
	}
	if got := first(ix); got != "census.md" {
		t.Fatalf("with the title not weighed: %s first, want census.md (else this test proves nothing)", got)
	}
	ix.Close()
	ix = open()
	defer ix.Close()
	if ix.Rebuilt {
		t.Error("a weight change rebuilt the index; it only re-ranks")
	}
	if got := first(ix); got != "walrus.md" {
		t.Errorf("after reopening: %s first, want walrus.md: the index kept the old weights", got)
	}
	if got, _ := metaValue(ix.db, "rank"); got != ftsRank(titleWeight, headingWeight) {
		t.Errorf("stored rank %q, want %q", got, ftsRank(titleWeight, headingWeight))
	}
}
