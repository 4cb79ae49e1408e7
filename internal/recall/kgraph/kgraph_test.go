package kgraph

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

func write(t *testing.T, root, rel, body string) {
	t.Helper()
	testfile.Write(t, filepath.Join(root, filepath.FromSlash(rel)), body)
}

func TestAskJoinsLinksAndRelations(t *testing.T) {
	root := t.TempDir()
	write(t, root, "wiki/Denis.md", "# Denis\n\nA friend.\nServed at the [[Kremlin]] regiment.\n")
	write(t, root, "wiki/Kremlin.md", "# Kremlin\n")
	write(t, root, "wiki/Unrelated.md", "# Unrelated\n")
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	r, err := Link(root, "Kremlin", "Yeltsin", "seat of", "a person said so", now, 0)
	if err != nil || r.ID == "" || !strings.HasPrefix(r.Cite, RelationsFile+"#L") {
		t.Fatalf("%+v %v", r, err)
	}
	if _, err := Link(root, "x · y", "z", "r", "", now, 0); err == nil {
		t.Fatal("an entity that would break the line must be refused")
	}
	g, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	c := g.Ask("could Denis have known Yeltsin?")
	if len(c.Entities) != 2 {
		t.Fatalf("entities %+v", c.Entities)
	}
	if len(c.Paths) != 1 {
		t.Fatalf("paths %+v", c.Paths)
	}
	p := c.Paths[0]
	cites := map[string]string{}
	for _, st := range p.Steps {
		cites[st.Cite] = st.Via
	}
	if len(p.Steps) != 2 || cites["wiki/Denis.md#L4-L4"] != "link" || cites[r.Cite] != "seat of" {
		t.Fatalf("path %+v", p)
	}
	var kremlinBack bool
	g2 := g.Ask("what links to the Kremlin")
	for _, b := range g2.Entities[0].Backlinks {
		kremlinBack = kremlinBack || b.Name == "Denis" && b.Cite == "wiki/Denis.md#L4-L4"
	}
	if !kremlinBack {
		t.Fatalf("backlink of Kremlin missing: %+v", g2.Entities)
	}
	if !g.Ask("weather in Oslo").Empty() {
		t.Fatal("an unknown question must give an empty context")
	}
	rels, _ := ReadRelations(root)
	if len(rels) != 1 || rels[0].ID != r.ID || rels[0].Source != "a person said so" {
		t.Fatalf("relations read back: %+v", rels)
	}
}

// Another project's context carries its id in every page and citation,
// in the form memhook get reads; the context asked for is left as it was.
func TestInProjectLabelsEveryCitation(t *testing.T) {
	c := &Context{
		Entities: []Entity{{Name: "Dima", Page: "wiki/Dima.md",
			Neighbours: []Ref{{Name: "Denis", Page: "wiki/Denis.md", Via: "link", Cite: "wiki/Dima.md#L3-L3"}},
			Backlinks:  []Ref{{Name: "Madrid", Via: "lives in", Cite: "graph/relations.md#L2-L2"}}}},
		Paths: []Path{{From: "Dima", To: "Madrid", Steps: []Step{{From: "Dima", To: "Madrid", Via: "lives in", Cite: "graph/relations.md#L2-L2"}}}},
	}
	got := c.InProject("ledger-1", ".claude/memory_long")
	e := got.Entities[0]
	if e.Page != "ledger-1:.claude/memory_long/wiki/Dima.md" || e.Neighbours[0].Page != "ledger-1:.claude/memory_long/wiki/Denis.md" ||
		e.Neighbours[0].Cite != "ledger-1:.claude/memory_long/wiki/Dima.md#L3-L3" || e.Backlinks[0].Cite != "ledger-1:.claude/memory_long/graph/relations.md#L2-L2" {
		t.Errorf("entity %+v", e)
	}
	if e.Backlinks[0].Page != "" {
		t.Errorf("an entity without a page got one: %q", e.Backlinks[0].Page)
	}
	if s := got.Paths[0].Steps[0]; s.Cite != "ledger-1:.claude/memory_long/graph/relations.md#L2-L2" {
		t.Errorf("step %+v", s)
	}
	if c.Entities[0].Neighbours[0].Cite != "wiki/Dima.md#L3-L3" || c.Paths[0].Steps[0].Cite != "graph/relations.md#L2-L2" {
		t.Error("the original context was changed")
	}
}
