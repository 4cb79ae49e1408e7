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
