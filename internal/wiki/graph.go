package wiki

import (
	"encoding/json"
	"path"
	"sort"
	"strings"
)

// Edge is one resolved link between two pages.
type Edge struct {
	From string `json:"from"`
	To   string `json:"to"`
	Line int    `json:"line"`
}

// Broken is a link whose target names no page and no file.
type Broken struct {
	From   string `json:"from"`
	Target string `json:"target"`
	Line   int    `json:"line"`
	// Attachment marks a missing non-Markdown file (an image, a PDF), which
	// vaults shared without their attachments often lack.
	Attachment bool `json:"attachment,omitempty"`
}

// Node is one page in the graph.
type Node struct {
	Path      string   `json:"path"`
	Type      string   `json:"type,omitempty"`
	Title     string   `json:"title"`
	Links     []string `json:"links,omitempty"`
	Backlinks []string `json:"backlinks,omitempty"`
}

// Graph is the deterministic link graph of a vault: the same pages always
// give the same bytes from [Graph.JSON].
type Graph struct {
	Nodes   []Node   `json:"nodes"`
	Edges   []Edge   `json:"edges"`
	Orphans []string `json:"orphans"` // pages with neither links in nor out
	Broken  []Broken `json:"broken"`
}

// Graph resolves every link of every page.
func (v *Vault) Graph() *Graph {
	g := &Graph{Nodes: []Node{}, Edges: []Edge{}, Orphans: []string{}, Broken: []Broken{}}
	out := map[string]map[string]bool{}
	in := map[string]map[string]bool{}
	for _, p := range v.Pages {
		for _, l := range p.Links {
			to := v.Resolve(l.Target, p.Path)
			if to == nil {
				if _, ok := v.File(l.Target); !ok {
					ext := path.Ext(l.Target)
					att := ext != "" && len(ext) <= 6 && !strings.ContainsAny(ext, " ") && !strings.EqualFold(ext, ".md")
					g.Broken = append(g.Broken, Broken{From: p.Path, Target: l.Target, Line: l.Line, Attachment: att})
				}
				continue
			}
			if to.Path == p.Path {
				continue
			}
			g.Edges = append(g.Edges, Edge{From: p.Path, To: to.Path, Line: l.Line})
			add(out, p.Path, to.Path)
			add(in, to.Path, p.Path)
		}
	}
	for _, p := range v.Pages {
		n := Node{Path: p.Path, Type: p.Type, Title: p.Title, Links: keys(out[p.Path]), Backlinks: keys(in[p.Path])}
		g.Nodes = append(g.Nodes, n)
		if len(n.Links) == 0 && len(n.Backlinks) == 0 {
			g.Orphans = append(g.Orphans, p.Path)
		}
	}
	return g
}

// Node returns the node of a page path, or nil.
func (g *Graph) Node(path string) *Node {
	i := sort.Search(len(g.Nodes), func(i int) bool { return g.Nodes[i].Path >= path })
	if i < len(g.Nodes) && g.Nodes[i].Path == path {
		return &g.Nodes[i]
	}
	return nil
}

// JSON renders the graph with a stable layout.
func (g *Graph) JSON() []byte {
	b, _ := json.MarshalIndent(g, "", "  ")
	return append(b, '\n')
}

func add(m map[string]map[string]bool, a, b string) {
	if m[a] == nil {
		m[a] = map[string]bool{}
	}
	m[a][b] = true
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
