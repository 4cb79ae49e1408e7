package blackbox

import (
	"fmt"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/recall/kgraph"
	"github.com/cerebro-mem/cerebro/internal/text/cite"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// Entity gating: a question that names people, places or things ("мог ли
// Миша знать Путина") is answered by a passage only when the passage
// names the same ones, or the graph links what it names to them. Word
// overlap alone would answer it with the Denis/Yeltsin summary: most of
// the question's words ("мог", "знать") are there, the people are not.

// entityGate decides which passages answer a question's entities.
type entityGate struct {
	keys  []string // the question's entity keys (see Claim.Entities)
	names []string // as written, for the note
	graph *kgraph.Graph
}

// newEntityGate reads the entities of a question; nil when it names none.
func (b *Box) newEntityGate(query string) *entityGate {
	c := extractClaim(query)
	if c == nil || len(c.Entities) == 0 {
		return nil
	}
	g := &entityGate{keys: c.Entities}
	for _, n := range []string{c.Subject, c.Object} {
		if n != "" {
			g.names = append(g.names, n)
		}
	}
	if gr, err := kgraph.Load(b.LongDir); err == nil {
		g.graph = gr
	}
	return g
}

// answers reports whether an item names every entity of the question (in
// its text or its file's name), or is linked to the ones it does not
// name by the graph.
func (g *entityGate) answers(it Item) bool {
	if g == nil {
		return true
	}
	text := it.Text
	if p, _, _, ok := cite.Parse(it.Cite); ok {
		text += "\n" + p
	}
	have := map[string]bool{}
	for _, w := range textan.Words(text) {
		have[textan.Stem(w)] = true
	}
	for _, k := range g.keys {
		if !have[k] && !g.graph.Links(k, text) {
			return false
		}
	}
	return true
}

func (g *entityGate) note(n int) string {
	return fmt.Sprintf("%d passages name none or only some of %s and do not count", n, strings.Join(g.names, ", "))
}
