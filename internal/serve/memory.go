package serve

import (
	"context"
	"fmt"
	"html/template"
	"maps"
	"math"
	"net/http"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/search"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/recall/kgraph"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/wiki"
)

const longRel = ".claude/memory_long"

// longSkip are the long-term folders that are not wiki pages.
var longSkip = []string{"raw", "tables"}

type memoryView struct {
	Days  []dayLink
	Pages []pageLink
	Empty bool
}

type dayLink struct {
	Day, Path string
	Archived  bool
}

type pageLink struct {
	Path, Title, Type string
}

// vault loads the project's long-term wiki without the pages the browser
// may not read (a symlinked page, whose content lives elsewhere): they are
// neither listed, nor linked, nor counted as backlinks.
func vault(root string) (*wiki.Vault, error) {
	v, err := wiki.Load(filepath.Join(root, filepath.FromSlash(longRel)), wiki.Options{Skip: longSkip, MaxFileBytes: maxFileBytes})
	if err != nil {
		return nil, err
	}
	kept := v.Pages[:0]
	for _, p := range v.Pages {
		if _, err := resolve(root, longRel+"/"+p.Path); err == nil {
			kept = append(kept, p)
		}
	}
	// Links still resolve to a dropped page by name; opening it is refused
	// like any path outside the memory roots.
	v.Pages = kept
	return v, nil
}

// days lists the project's daily distillates, newest first: two directory
// listings of names.
func days(root string) []dayLink {
	var out []dayLink
	l := project.Layout{Root: root}
	for _, d := range []struct {
		dir      string
		archived bool
	}{{l.DailyDir(), false}, {l.ArchiveDir(), true}} {
		// The project's folders: a planted link or FIFO is refused.
		dates, _ := daily.Days(d.dir)
		for _, day := range dates {
			rel, _ := filepath.Rel(root, daily.File(d.dir, day))
			out = append(out, dayLink{Day: day, Path: filepath.ToSlash(rel), Archived: d.archived})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Day > out[j].Day })
	return out
}

// memoryEmpty says whether the project holds nothing a recall could
// answer from: no daily distillate, no remembered record, no table, no
// relation and no wiki page of its own (the pages `long on` writes are a
// frame, not memory). Directory listings only.
func memoryEmpty(root string) bool {
	if len(days(root)) > 0 {
		return false
	}
	long := project.Layout{Root: root}.LongDir()
	for _, dir := range []string{blackbox.RecordsDir, blackbox.TablesDir, "graph", "wiki", "objects"} {
		names, err := safefs.ReadDirNames(filepath.Join(long, dir))
		if err != nil {
			continue
		}
		for _, n := range names {
			if !strings.HasPrefix(n, ".") && n != "_private" {
				return false
			}
		}
	}
	return true
}

func (s *Server) memory(w http.ResponseWriter, r *http.Request, q *req) {
	v := memoryView{Days: days(q.p.Root), Empty: memoryEmpty(q.p.Root)}
	if vt, err := vault(q.p.Root); err == nil {
		for _, p := range vt.Pages {
			v.Pages = append(v.Pages, pageLink{Path: longRel + "/" + p.Path, Title: p.Title, Type: p.Type})
		}
	}
	s.render(w, r, q, "memory", "memory", q.lang.T("Project memory"), http.StatusOK, page{Data: v})
}

// fileView is one memory file: a Markdown page rendered (its frontmatter
// as a table beside it), or any file as numbered lines with wikilinks made
// links — the view a citation opens, at its lines.
type fileView struct {
	Path      string
	Lines     []fileLine
	HTML      template.HTML
	Meta      []metaField
	Backlinks []pageLink
	From, To  int
	Source    bool   // the numbered lines are shown
	Markdown  bool   // the file can be rendered
	Other     string // the address of the other view
}

// metaField is one frontmatter field as text; Empty is a field with no
// value (an empty list, nothing after the colon), which the page names.
type metaField struct {
	Key, Value string
	Empty      bool
}

func metaFields(m map[string]any) []metaField {
	var out []metaField
	for k, v := range m {
		val := metaValue(v)
		out = append(out, metaField{Key: k, Value: val, Empty: val == ""})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// metaValue is a frontmatter value as it was written: a YAML date as the
// date (2026-12-04, not Go's 2026-12-04 00:00:00 +0000 UTC), a datetime
// to the minute (the second when it has one) with its zone, a list joined.
func metaValue(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case time.Time:
		return readableTime(x)
	case []any:
		var parts []string
		for _, e := range x {
			if s := metaValue(e); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, "; ")
	case map[string]any:
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(x)) {
			parts = append(parts, k+": "+metaValue(x[k]))
		}
		return strings.Join(parts, "; ")
	}
	return fmt.Sprint(v)
}

// readableTime is a YAML timestamp as a person wrote it: a bare date (YAML
// reads it as midnight UTC) stays a date.
func readableTime(t time.Time) string {
	h, m, sec := t.Clock()
	if h == 0 && m == 0 && sec == 0 && t.Nanosecond() == 0 && t.Location() == time.UTC {
		return t.Format(time.DateOnly)
	}
	layout := "2006-01-02 15:04"
	if sec != 0 {
		layout += ":05"
	}
	if _, off := t.Zone(); off == 0 {
		return t.Format(layout) + " UTC"
	}
	return t.Format(layout + " -07:00")
}

type fileLine struct {
	N     int
	Mark  bool
	Parts []linePart
}

// linePart is text, or a link when Href is set. Both are escaped by the
// template: nothing from a note reaches the page as markup.
type linePart struct {
	Text, Href string
	Broken     bool
}

func (s *Server) file(w http.ResponseWriter, r *http.Request, q *req) {
	qs := r.URL.Query()
	rel := qs.Get("path")
	data, err := readMemory(q.p.Root, rel)
	if err != nil {
		s.fail(w, r, q, http.StatusNotFound, memoryError(q.lang, rel, err))
		return
	}
	v := fileView{Path: rel, Markdown: strings.EqualFold(path.Ext(rel), ".md")}
	v.From, _ = strconv.Atoi(qs.Get("from"))
	v.To, _ = strconv.Atoi(qs.Get("to"))
	if v.To < v.From {
		v.To = v.From
	}
	// A citation opens the lines; a page is read rendered.
	v.Source = !v.Markdown || v.From > 0 || qs.Get("view") == "source"
	vt, _ := vault(q.p.Root)
	vaultPath := ""
	if strings.HasPrefix(rel, longRel+"/") {
		vaultPath = strings.TrimPrefix(rel, longRel+"/")
		if vt != nil {
			if n := vt.Graph().Node(vaultPath); n != nil {
				for _, b := range n.Backlinks {
					title := b
					if p := vt.Page(b); p != nil && p.Title != "" {
						title = p.Title
					}
					v.Backlinks = append(v.Backlinks, pageLink{Path: longRel + "/" + b, Title: title})
				}
			}
		}
	}
	lp := s.linkPage(q)
	if v.Source {
		link := s.linker(q, vt, vaultPath)
		for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			fl := fileLine{N: i + 1, Mark: v.From > 0 && i+1 >= v.From && i+1 <= v.To}
			fl.Parts = parts(line, link)
			v.Lines = append(v.Lines, fl)
		}
		if v.Markdown {
			v.Other = lp.U("/memory/file", "path", rel)
		}
	} else {
		pg := wiki.ParsePage(rel, data)
		v.Meta = metaFields(pg.Meta)
		v.HTML = s.markdown(q, vt, vaultPath).render(pg.Body)
		v.Other = lp.U("/memory/file", "path", rel, "view", "source")
	}
	s.render(w, r, q, "file", "memory", rel, http.StatusOK, page{Data: v})
}

// lines is the address of a memory file opened at lines from–to.
func (s *Server) lines(q *req, rel string, from, to int) string {
	return s.linkPage(q).U("/memory/file", "path", rel, "from", strconv.Itoa(from), "to", strconv.Itoa(to)) + "#L" + strconv.Itoa(from)
}

// parts splits a line at its wikilinks, resolving each through link.
func parts(line string, link linkTarget) []linePart {
	if !strings.Contains(line, "[[") {
		return []linePart{{Text: line}}
	}
	var out []linePart
	rest := line
	for {
		i := strings.Index(rest, "[[")
		if i < 0 {
			break
		}
		j := strings.Index(rest[i+2:], "]]")
		if j < 0 {
			break
		}
		inner := rest[i+2 : i+2+j]
		out = append(out, linePart{Text: rest[:i]})
		part := linePart{Text: "[[" + inner + "]]", Broken: true}
		if ls := wiki.ParseLinks("[["+inner+"]]", 1); len(ls) == 1 {
			label := ls[0].Alias
			if label == "" {
				label = ls[0].Target
			}
			if href := link(ls[0]); href != "" {
				part = linePart{Text: label, Href: href}
			}
		}
		out = append(out, part)
		rest = rest[i+2+j+2:]
	}
	return append(out, linePart{Text: rest})
}

// graphView is the knowledge graph drawn server-side: wiki pages and
// recorded relations' entities on a circle, edges as lines.
type graphView struct {
	Nodes []graphNode
	Edges []graphEdge
	Size  int
	Shown int
	Total int
	Links int // edges drawn
}

type graphNode struct {
	Name, Href string
	X, Y       float64
	LX, LY     float64
	Anchor     string
	Page       bool
}

type graphEdge struct {
	X1, Y1, X2, Y2 float64
	Label          string
	Relation       bool
}

// maxGraphNodes keeps the drawing readable: the most connected nodes.
const maxGraphNodes = 60

// notWiki are the long-term files that are memory but not wiki pages:
// the relations page (drawn as the relations themselves), remembered
// records, denials and stored objects.
func notWiki(p string) bool {
	for _, dir := range []string{"graph/", blackbox.RecordsDir + "/", blackbox.DenialsDir + "/", "objects/"} {
		if strings.HasPrefix(p, dir) {
			return true
		}
	}
	return false
}

// graph draws every link that exists: each page of the vault (index,
// log and the plan-fact page included: a fresh project's index links its
// pages) and each recorded relation, an entity that names a page being
// that page's node.
func (s *Server) graph(w http.ResponseWriter, r *http.Request, q *req) {
	lp := s.linkPage(q)
	type edge struct {
		from, to, label string
		rel             bool
	}
	var edges []edge
	degree := map[string]int{}
	href := map[string]string{}
	label := map[string]string{}
	vt, _ := vault(q.p.Root)
	if vt != nil {
		g := vt.Graph()
		for _, n := range g.Nodes {
			if notWiki(n.Path) {
				continue
			}
			degree[n.Path] += 0
			href[n.Path] = lp.U("/memory/file", "path", longRel+"/"+n.Path)
			label[n.Path] = strings.TrimSuffix(path.Base(n.Path), ".md")
		}
		for _, e := range g.Edges {
			if _, ok := href[e.From]; !ok {
				continue
			}
			if _, ok := href[e.To]; !ok {
				continue
			}
			edges = append(edges, edge{e.From, e.To, "", false})
			degree[e.From]++
			degree[e.To]++
		}
	}
	node := func(entity string) string {
		if vt != nil {
			if p := vt.Resolve(entity, ""); p != nil {
				if _, ok := href[p.Path]; ok {
					return p.Path
				}
			}
		}
		key := "entity:" + entity
		label[key] = entity
		return key
	}
	rels, _ := kgraph.ReadRelations(filepath.Join(q.p.Root, filepath.FromSlash(longRel)))
	for _, rl := range rels {
		a, b := node(rl.From), node(rl.To)
		edges = append(edges, edge{a, b, rl.Rel, true})
		degree[a]++
		degree[b]++
	}
	names := make([]string, 0, len(degree))
	for n := range degree {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if degree[names[i]] != degree[names[j]] {
			return degree[names[i]] > degree[names[j]]
		}
		return names[i] < names[j]
	})
	v := graphView{Total: len(names), Size: 720}
	if len(names) > maxGraphNodes {
		names = names[:maxGraphNodes]
	}
	sort.Slice(names, func(i, j int) bool { return label[names[i]] < label[names[j]] })
	v.Shown = len(names)
	pos := map[string][2]float64{}
	c, rad := float64(v.Size)/2, float64(v.Size)/2-150
	for i, n := range names {
		a := 2*math.Pi*float64(i)/float64(max(1, len(names))) - math.Pi/2
		x, y := c+rad*math.Cos(a), c+rad*math.Sin(a)
		pos[n] = [2]float64{x, y}
		anchor := "start"
		lx := x + 8
		if math.Cos(a) < -0.01 {
			anchor, lx = "end", x-8
		}
		_, isPage := href[n]
		v.Nodes = append(v.Nodes, graphNode{Name: label[n], Href: href[n], X: x, Y: y, LX: lx, LY: y + 4, Anchor: anchor, Page: isPage})
	}
	for _, e := range edges {
		a, okA := pos[e.from]
		b, okB := pos[e.to]
		if okA && okB {
			v.Edges = append(v.Edges, graphEdge{X1: a[0], Y1: a[1], X2: b[0], Y2: b[1], Label: e.label, Relation: e.rel})
		}
	}
	v.Links = len(v.Edges)
	s.render(w, r, q, "graph", "graph", q.lang.T("Knowledge graph"), http.StatusOK, page{Data: v})
}

type searchView struct {
	Query   string
	Scope   string // one of search's scopes; search.DefaultScope when the address names none
	Scopes  []scopeChoice
	Results []searchResult
	Notes   []string
	Mode    string
}

// scopeChoice is one scope of the selector, in search's words.
type scopeChoice struct {
	Value, Label string
}

// searchScopes are the selector's scopes, the default first: the same as
// `memhook search --scope`.
var searchScopes = []scopeChoice{
	{string(search.ScopeAll), "this project and the org desk"},
	{string(search.ScopeProject), "this project"},
	{string(search.ScopeOrg), "the org desk"},
	{string(search.ScopeProjects), "every registered project"},
	{string(search.ScopeEverything), "every registered project and the org desk"},
}

type searchResult struct {
	Citation, Href string
	Snippet        string // the passage as text: no Markdown syntax, no HTML comment
	Score          float64
	Project        string // another project's registry id; its files are not served here
	Desk           bool   // the org desk's; its files are not served here either
}

func (s *Server) search(w http.ResponseWriter, r *http.Request, q *req) {
	v := searchView{Query: strings.TrimSpace(r.URL.Query().Get("q")), Scope: r.URL.Query().Get("scope"), Scopes: searchScopes}
	if v.Scope == "" {
		v.Scope = string(search.DefaultScope)
	}
	if _, err := search.ParseScope(v.Scope); err != nil {
		s.fail(w, r, q, http.StatusBadRequest, fmt.Errorf(q.lang.T("search scope %q: want all, project, org, projects or everything"), v.Scope))
		return
	}
	if v.Query != "" {
		if s.opts.Search == nil {
			s.fail(w, r, q, http.StatusNotFound, fmt.Errorf("%s", q.lang.T("search is not available")))
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
		defer cancel()
		s.mu.Lock()
		resp, err := s.opts.Search(ctx, SearchQuery{Root: q.p.Root, Text: v.Query, Limit: 20, Scope: v.Scope})
		s.mu.Unlock()
		if err != nil {
			s.fail(w, r, q, http.StatusInternalServerError, fmt.Errorf("search: %w", err))
			return
		}
		v.Notes, v.Mode = resp.Notes, resp.Mode
		for _, res := range resp.Results {
			sr := searchResult{Citation: res.Citation, Snippet: snippetText(res.Snippet), Score: res.Score}
			switch {
			case resp.Across != nil && res.Project != "" && res.Project != resp.Across.Self:
				sr.Project = res.Project
			case s.opts.Desk != "" && within(s.opts.Desk, res.Path):
				sr.Desk = true
			default:
				if _, err := resolve(q.p.Root, res.Path); err == nil {
					sr.Href = s.lines(q, res.Path, res.StartLine, res.EndLine)
				}
			}
			v.Results = append(v.Results, sr)
		}
	}
	s.render(w, r, q, "search", "search", q.lang.T("Search memory"), http.StatusOK, page{Data: v})
}

// within says whether path (absolute, as search gives a path outside the
// project) lies under dir.
func within(dir, path string) bool {
	if !filepath.IsAbs(path) {
		return false
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
