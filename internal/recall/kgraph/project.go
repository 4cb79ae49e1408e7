package kgraph

// InProject labels a context from another project's graph: every page and
// citation, relative to that project's long-term memory, is rewritten as
// id:base/path (base is the memory's folder in that project, such as
// .claude/memory_long), the form `memhook get` reads, so that no reader
// takes another project's graph for this one's.
func (c *Context) InProject(id, base string) *Context {
	label := func(s string) string {
		if s == "" {
			return ""
		}
		return id + ":" + base + "/" + s
	}
	out := &Context{}
	for _, e := range c.Entities {
		e.Page = label(e.Page)
		e.Neighbours = labelRefs(e.Neighbours, label)
		e.Backlinks = labelRefs(e.Backlinks, label)
		out.Entities = append(out.Entities, e)
	}
	for _, p := range c.Paths {
		steps := make([]Step, len(p.Steps))
		for i, s := range p.Steps {
			s.Cite = label(s.Cite)
			steps[i] = s
		}
		p.Steps = steps
		out.Paths = append(out.Paths, p)
	}
	return out
}

func labelRefs(rs []Ref, label func(string) string) []Ref {
	if rs == nil {
		return nil
	}
	out := make([]Ref, len(rs))
	for i, r := range rs {
		r.Page, r.Cite = label(r.Page), label(r.Cite)
		out[i] = r
	}
	return out
}
