package kgraph

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/text/cite"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
	"github.com/cerebro-mem/cerebro/internal/wiki"
)

// Graph is the wiki's link graph joined with the recorded relations.
type Graph struct {
	nodes map[string]*node
	adj   map[string][]edge
}

type node struct {
	key  string
	name string
	page string // "" for an entity known only from relations
}

type edge struct {
	to   string
	via  string // "link" or the relation's name
	out  bool   // direction as written
	cite string
}

// Ref is a neighbour or backlink with the line that makes it one.
type Ref struct {
	Name string `json:"name"`
	Page string `json:"page,omitempty"`
	Via  string `json:"via"`
	Cite string `json:"cite"`
}

// Entity is one matched entity and its neighbourhood.
type Entity struct {
	Name       string `json:"name"`
	Page       string `json:"page,omitempty"`
	Neighbours []Ref  `json:"neighbours"`
	Backlinks  []Ref  `json:"backlinks"`
}

// Step is one hop of a path.
type Step struct {
	From string `json:"from"`
	To   string `json:"to"`
	Via  string `json:"via"`
	Cite string `json:"cite"`
}

// Path connects two matched entities.
type Path struct {
	From  string `json:"from"`
	To    string `json:"to"`
	Steps []Step `json:"steps"`
}

// Context is what the graph returns: facts with citations, no prose.
type Context struct {
	Entities []Entity `json:"entities"`
	Paths    []Path   `json:"paths"`
}

// Empty reports whether the graph knew nothing about the question.
func (c *Context) Empty() bool { return len(c.Entities) == 0 }

// MaxPathHops bounds the path search: longer chains say little.
const MaxPathHops = 4

// Load builds the graph of the memory root (a missing root is an empty
// graph).
func Load(root string) (*Graph, error) {
	g := &Graph{nodes: map[string]*node{}, adj: map[string][]edge{}}
	if _, err := os.Stat(root); errors.Is(err, os.ErrNotExist) {
		return g, nil
	}
	v, err := wiki.Load(root, wiki.Options{Skip: []string{"graph", "objects", "tables", "raw"}})
	if err != nil {
		return nil, fmt.Errorf("load wiki for the graph: %w", err)
	}
	for _, p := range v.Pages {
		g.nodes["page:"+p.Path] = &node{key: "page:" + p.Path, name: p.Name, page: p.Path}
	}
	for _, p := range v.Pages {
		for _, l := range p.Links {
			to := v.Resolve(l.Target, p.Path)
			if to == nil || to.Path == p.Path {
				continue
			}
			g.add("page:"+p.Path, "page:"+to.Path, "link", cite.Lines(p.Path, l.Line, l.Line))
		}
	}
	rels, err := ReadRelations(root)
	if err != nil {
		return nil, err
	}
	keyOf := func(name string) string {
		if p := v.Resolve(name, ""); p != nil {
			return "page:" + p.Path
		}
		k := "entity:" + strings.ToLower(name)
		if g.nodes[k] == nil {
			g.nodes[k] = &node{key: k, name: name}
		}
		return k
	}
	for _, r := range rels {
		g.add(keyOf(r.From), keyOf(r.To), r.Rel, r.Cite)
	}
	return g, nil
}

func (g *Graph) add(from, to, via, cite string) {
	g.adj[from] = append(g.adj[from], edge{to: to, via: via, out: true, cite: cite})
	g.adj[to] = append(g.adj[to], edge{to: from, via: via, out: false, cite: cite})
}

func near(a, b string) bool {
	if a == b {
		return true
	}
	if len([]rune(a)) > len([]rune(b)) {
		a, b = b, a
	}
	return len([]rune(a)) >= 4 && strings.HasPrefix(b, a) && len([]rune(b))-len([]rune(a)) <= 2
}

// matches reports whether every word of an entity's name is in the
// question (names of one or two letters never match: too common).
func matches(q []string, name string) bool {
	nw := textan.Words(name)
	if len(nw) == 0 || len([]rune(strings.Join(nw, ""))) < 3 {
		return false
	}
	for _, n := range nw {
		ok := false
		for _, w := range q {
			if near(w, n) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// Ask returns the context the graph holds about a question.
func (g *Graph) Ask(question string) *Context {
	q := textan.Words(question)
	var keys []string
	for k, n := range g.nodes {
		if matches(q, n.name) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	if len(keys) > 10 {
		keys = keys[:10]
	}
	c := &Context{Entities: []Entity{}, Paths: []Path{}}
	for _, k := range keys {
		n := g.nodes[k]
		e := Entity{Name: n.name, Page: n.page, Neighbours: []Ref{}, Backlinks: []Ref{}}
		for _, ed := range g.adj[k] {
			m := g.nodes[ed.to]
			r := Ref{Name: m.name, Page: m.page, Via: ed.via, Cite: ed.cite}
			if ed.out {
				e.Neighbours = append(e.Neighbours, r)
			} else {
				e.Backlinks = append(e.Backlinks, r)
			}
		}
		c.Entities = append(c.Entities, e)
	}
	for i := 0; i < len(keys); i++ {
		for j := i + 1; j < len(keys); j++ {
			if p := g.path(keys[i], keys[j]); p != nil {
				c.Paths = append(c.Paths, *p)
			}
		}
	}
	return c
}

// path is a breadth-first shortest path over links and relations in
// either direction, at most MaxPathHops long.
func (g *Graph) path(from, to string) *Path {
	type prev struct {
		key string
		e   edge
	}
	seen := map[string]prev{from: {}}
	frontier := []string{from}
	for hop := 0; hop < MaxPathHops && len(frontier) > 0; hop++ {
		var next []string
		for _, k := range frontier {
			for _, e := range g.adj[k] {
				if _, ok := seen[e.to]; ok {
					continue
				}
				seen[e.to] = prev{key: k, e: e}
				if e.to == to {
					var steps []Step
					for cur := to; cur != from; {
						p := seen[cur]
						steps = append([]Step{{From: g.nodes[p.key].name, To: g.nodes[cur].name, Via: p.e.via, Cite: p.e.cite}}, steps...)
						cur = p.key
					}
					return &Path{From: g.nodes[from].name, To: g.nodes[to].name, Steps: steps}
				}
				next = append(next, e.to)
			}
		}
		frontier = next
	}
	return nil
}
