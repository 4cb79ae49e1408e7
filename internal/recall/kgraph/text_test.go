package kgraph

import (
	"bytes"
	"strings"
	"testing"
)

func TestContextWriteText(t *testing.T) {
	var b bytes.Buffer
	(&Context{}).WriteText(&b)
	if b.String() != "no entity of the question is in the graph\n" {
		t.Errorf("empty: %q", b.String())
	}
	b.Reset()
	c := &Context{
		Entities: []Entity{{Name: "Postgres", Page: "wiki/Postgres.md", Neighbours: []Ref{{Name: "Backups", Via: "link", Cite: "wiki/Postgres.md#L3-L3"}}}},
		Paths:    []Path{{From: "Postgres", To: "Backups", Steps: []Step{{From: "Postgres", Via: "link", To: "Backups", Cite: "c"}}}},
	}
	c.WriteText(&b)
	want := "Postgres  (wiki/Postgres.md)\n  → Backups  [link]  wiki/Postgres.md#L3-L3\npath Postgres ⇒ Backups\n  Postgres —link— Backups  c\n"
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	r := Relation{ID: "r1", From: "A", Rel: "uses", To: "B", Cite: "graph/relations.md#L2-L2"}
	if s := r.String(); !strings.HasPrefix(s, "r1  [[A]] · uses · [[B]]  (") {
		t.Errorf("relation %q", s)
	}
}
