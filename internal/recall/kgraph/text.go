package kgraph

import (
	"fmt"
	"io"
)

// WriteText prints the context as `memhook graph ask` does: each entity
// with its page, its neighbours (→) and backlinks (←), then the paths
// between the entities, every line with its citation.
func (c *Context) WriteText(w io.Writer) {
	if c.Empty() {
		fmt.Fprintln(w, "no entity of the question is in the graph")
		return
	}
	for _, e := range c.Entities {
		fmt.Fprintf(w, "%s", e.Name)
		if e.Page != "" {
			fmt.Fprintf(w, "  (%s)", e.Page)
		}
		fmt.Fprintln(w)
		for _, r := range e.Neighbours {
			fmt.Fprintf(w, "  → %s  [%s]  %s\n", r.Name, r.Via, r.Cite)
		}
		for _, r := range e.Backlinks {
			fmt.Fprintf(w, "  ← %s  [%s]  %s\n", r.Name, r.Via, r.Cite)
		}
	}
	for _, p := range c.Paths {
		fmt.Fprintf(w, "path %s ⇒ %s\n", p.From, p.To)
		for _, s := range p.Steps {
			fmt.Fprintf(w, "  %s —%s— %s  %s\n", s.From, s.Via, s.To, s.Cite)
		}
	}
}

// String is the relation as `memhook graph link` reports it: its id, the
// link in wiki form and its citation.
func (r Relation) String() string {
	return fmt.Sprintf("%s  [[%s]] · %s · [[%s]]  (%s)", r.ID, r.From, r.Rel, r.To, r.Cite)
}
