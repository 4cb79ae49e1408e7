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
