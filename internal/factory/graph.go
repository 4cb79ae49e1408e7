package factory

import (
	"fmt"

	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/recall/kgraph"
)

// GraphLink records the relation from —rel→ to in the graph of the
// project at root, read within the project's note limit. When long-term
// memory is on, its log.md gets the line too: the log is how a person
// sees what changed in memory, whoever changed it.
func (f *Factory) GraphLink(root, from, to, rel, source string) (kgraph.Relation, error) {
	layout := project.Layout{Root: root}
	r, err := kgraph.Link(layout.LongDir(), from, to, rel, source, f.Now(), f.Config(root).Limits.NoteBytes)
	if err != nil {
		return r, err
	}
	if layout.LongActive() {
		_ = longterm.New(root).Log(f.Now(), "graph link", fmt.Sprintf("%s · %s · %s (%s)", r.From, r.Rel, r.To, r.Cite))
	}
	return r, nil
}
