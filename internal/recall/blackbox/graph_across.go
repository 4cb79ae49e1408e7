package blackbox

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/recall/kgraph"
)

// ProjectGraph is another project's knowledge graph, as level 3 reads it
// when recall is asked with scope "projects".
type ProjectGraph struct {
	ID      string // its registry id: the label of what it answers
	LongDir string // its .claude/memory_long
}

// GraphLister lists the desk's other projects' graphs: those registered
// projects that share their memory (the rules of a search across
// projects).
type GraphLister interface {
	Graphs() ([]ProjectGraph, error)
}

// longRel is where a project's long-term memory lies in it: graph
// citations are relative to it.
const longRel = ".claude/memory_long"

// graphLevel is level 3: this project's graph, and with scope "projects"
// the desk's other projects' graphs too, each context labelled with its
// project (never by default).
func (b *Box) graphLevel(ctx context.Context, req RecallRequest) ([]Item, string, error) {
	g, err := kgraph.Load(b.LongDir)
	if err != nil {
		return nil, "", err
	}
	items, note := graphItems(g, req.Query, "")
	if !req.Across || b.AcrossGraphs == nil {
		return items, note, nil
	}
	notes := []string{}
	if note != "" {
		notes = append(notes, note)
	}
	others, err := b.AcrossGraphs.Graphs()
	if err != nil {
		notes = append(notes, "the other projects' graphs were not read: "+err.Error())
		return items, strings.Join(notes, "; "), nil
	}
	for i, p := range others {
		if ctx.Err() != nil {
			var left []string
			for _, q := range others[i:] {
				left = append(left, q.ID)
			}
			notes = append(notes, "the time ran out before the graphs of "+strings.Join(left, ", "))
			break
		}
		g, err := kgraph.Load(p.LongDir)
		if err != nil {
			notes = append(notes, fmt.Sprintf("project %s's graph was not read: %v", p.ID, err))
			continue
		}
		it, n := graphItems(g, req.Query, p.ID)
		items = append(items, it...)
		if n != "" && len(it) == 0 {
			notes = append(notes, "project "+p.ID+": "+n)
		}
	}
	return items, strings.Join(notes, "; "), nil
}

// graphItems is what one graph answers: its context as one item, or a
// note when it knows the question's entities but no path between them.
// project is "" for this project's graph, else the other project's id,
// which the item, its citation and every citation in its context carry.
func graphItems(g *kgraph.Graph, query, project string) ([]Item, string) {
	c := g.Ask(query)
	if c.Empty() {
		return nil, ""
	}
	// A question naming two entities asks how they meet: context about
	// one of them alone, with no path to the other, does not answer it
	// (research starts from it instead).
	if cl := extractClaim(query); cl.Usable() && len(c.Paths) == 0 {
		var known []string
		for _, e := range c.Entities {
			known = append(known, e.Name)
		}
		return nil, fmt.Sprintf("partial context: the graph knows %s but no path between the question's entities (%s, %s)", strings.Join(known, ", "), cl.Subject, orUnknown(cl.Object))
	}
	var names []string
	for _, e := range c.Entities {
		names = append(names, e.Name)
	}
	key, _ := json.Marshal(names)
	cite := ""
	if c.Entities[0].Page != "" {
		cite = longRel + "/" + c.Entities[0].Page
	}
	text := fmt.Sprintf("graph context for %d entities, %d paths (context only, no generated text)", len(c.Entities), len(c.Paths))
	if project == "" {
		return []Item{{Fact: shortHash("g-", string(key)), Data: c, Cite: cite, Text: text}}, ""
	}
	if cite != "" {
		cite = project + ":" + cite
	}
	return []Item{{Fact: shortHash("g-", project+"\x00"+string(key)), Data: c.InProject(project, longRel), Cite: cite, Project: project,
		Text: fmt.Sprintf("another project's (%s) %s", project, text)}}, ""
}
