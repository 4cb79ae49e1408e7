package kgraph

import "github.com/cerebro-mem/cerebro/internal/text/textan"

// Links reports whether the graph joins an entity whose name ends in a
// word of stem key (as recall keys a question's entities) to an entity
// text names, by a path of at most MaxPathHops links and relations: a
// passage about the Kremlin regiment answers a question about Yeltsin
// when the graph says the regiment guarded him.
func (g *Graph) Links(key, text string) bool {
	if g == nil || key == "" {
		return false
	}
	q := textan.Words(text)
	var from, to []string
	for k, n := range g.nodes {
		ws := textan.Words(n.name)
		if len(ws) == 0 {
			continue
		}
		if textan.Stem(ws[len(ws)-1]) == key {
			from = append(from, k)
		}
		if matches(q, n.name) {
			to = append(to, k)
		}
	}
	for _, f := range from {
		for _, t := range to {
			if f == t || g.path(f, t) != nil {
				return true
			}
		}
	}
	return false
}
