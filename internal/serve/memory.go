package serve

import (
	"context"
	"fmt"
	"github.com/cerebro-mem/cerebro/internal/search"
	"math"
	"net/http"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/longterm/wiki"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/recall/kgraph"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

const longRel = ".claude/memory_long"

// longSkip are the long-term folders that are not wiki pages.
var longSkip = []string{"raw", "tables"}

type memoryView struct {
	Days  []dayLink
	Pages []pageLink
}

type dayLink struct {
	Day, Path string
	Archived  bool
}

type pageLink struct {
	Path, Title, Type string
}

// vault loads the long-term wiki without the pages the browser may not
// read (a symlinked page, whose content lives elsewhere): they are neither
// listed, nor linked, nor counted as backlinks.
func (s *Server) vault() (*wiki.Vault, error) {
	v, err := wiki.Load(filepath.Join(s.opts.Root, filepath.FromSlash(longRel)), wiki.Options{Skip: longSkip, MaxFileBytes: maxFileBytes})
	if err != nil {
		return nil, err
	}
	kept := v.Pages[:0]
	for _, p := range v.Pages {
		if _, err := s.resolve(longRel + "/" + p.Path); err == nil {
			kept = append(kept, p)
		}
	}
	// Links still resolve to a dropped page by name; opening it is refused
	// like any path outside the memory roots.
	v.Pages = kept
	return v, nil
}

func (s *Server) memory(w http.ResponseWriter, r *http.Request) {
	v := memoryView{}
	l := project.Layout{Root: s.opts.Root}
	for _, d := range []struct {
		dir      string
		archived bool
	}{{l.DailyDir(), false}, {l.ArchiveDir(), true}} {
		// The project's folders: a planted link or FIFO is refused.
		names, err := safefs.ReadDirNames(d.dir)
		if err != nil {
			continue
		}
		for _, n := range names {
			if m := dayName.FindStringSubmatch(n); m != nil {
				rel, _ := filepath.Rel(s.opts.Root, filepath.Join(d.dir, n))
				v.Days = append(v.Days, dayLink{Day: m[1], Path: filepath.ToSlash(rel), Archived: d.archived})
			}
		}
	}
	sort.Slice(v.Days, func(i, j int) bool { return v.Days[i].Day > v.Days[j].Day })
	if vt, err := s.vault(); err == nil {
		for _, p := range vt.Pages {
			title := p.Title
			if title == "" {
				title = p.Name
			}
			v.Pages = append(v.Pages, pageLink{Path: longRel + "/" + p.Path, Title: title, Type: p.Type})
		}
	}
	s.render(w, r, "memory", "memory", "Project memory", http.StatusOK, page{Data: v})
}

// fileView is one memory file with numbered lines, wikilinks made links,
// and for a long-term page its backlinks.
type fileView struct {
	Path      string
	Lines     []fileLine
	Backlinks []pageLink
	From, To  int
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

func (s *Server) file(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	rel := q.Get("path")
	data, err := s.readMemory(rel)
	if err != nil {
		s.fail(w, r, http.StatusNotFound, fmt.Errorf("%s: %w", rel, err))
		return
	}
	v := fileView{Path: rel}
	v.From, _ = strconv.Atoi(q.Get("from"))
	v.To, _ = strconv.Atoi(q.Get("to"))
	if v.To < v.From {
		v.To = v.From
	}
	var vt *wiki.Vault
	var vaultPath string
	if strings.HasPrefix(rel, longRel+"/") && strings.HasSuffix(rel, ".md") {
		if vt, err = s.vault(); err == nil {
			vaultPath = strings.TrimPrefix(rel, longRel+"/")
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
	lang := r.PathValue("lang")
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		fl := fileLine{N: i + 1, Mark: v.From > 0 && i+1 >= v.From && i+1 <= v.To}
		fl.Parts = s.parts(line, vt, vaultPath, lang)
		v.Lines = append(v.Lines, fl)
	}
	s.render(w, r, "file", "memory", rel, http.StatusOK, page{Data: v})
}

// parts splits a line at its wikilinks, resolving each in the vault.
func (s *Server) parts(line string, vt *wiki.Vault, from, lang string) []linePart {
	if vt == nil || !strings.Contains(line, "[[") {
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
		ls := wiki.ParseLinks("[["+inner+"]]", 1)
		label := inner
		part := linePart{Text: "[[" + inner + "]]", Broken: true}
		if len(ls) == 1 {
			if ls[0].Alias != "" {
				label = ls[0].Alias
			} else {
				label = ls[0].Target
			}
			if p := vt.Resolve(ls[0].Target, from); p != nil {
				part = linePart{Text: label, Href: "/" + lang + "/memory/file?path=" + urlQuery(longRel+"/"+p.Path)}
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
	Nodes  []graphNode
	Edges  []graphEdge
	Size   int
	Shown  int
	Total  int
	Legend []string
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

func (s *Server) graph(w http.ResponseWriter, r *http.Request) {
	lang := r.PathValue("lang")
	type edge struct {
		from, to, label string
		rel             bool
	}
	var edges []edge
	degree := map[string]int{}
	href := map[string]string{}
	if vt, err := s.vault(); err == nil {
		g := vt.Graph()
		for _, n := range g.Nodes {
			if strings.HasPrefix(n.Path, "graph/") || n.Path == "index.md" || n.Path == "log.md" || n.Path == "SCHEMA.md" {
				continue
			}
			name := strings.TrimSuffix(path.Base(n.Path), ".md")
			degree[name] += 0
			href[name] = "/" + lang + "/memory/file?path=" + urlQuery(longRel+"/"+n.Path)
		}
		for _, e := range g.Edges {
			a, b := strings.TrimSuffix(path.Base(e.From), ".md"), strings.TrimSuffix(path.Base(e.To), ".md")
			if _, ok := href[a]; !ok {
				continue
			}
			if _, ok := href[b]; !ok {
				continue
			}
			edges = append(edges, edge{a, b, "", false})
			degree[a]++
			degree[b]++
		}
	}
	rels, _ := kgraph.ReadRelations(filepath.Join(s.opts.Root, filepath.FromSlash(longRel)))
	for _, rl := range rels {
		edges = append(edges, edge{rl.From, rl.To, rl.Rel, true})
		degree[rl.From]++
		degree[rl.To]++
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
	sort.Strings(names)
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
		v.Nodes = append(v.Nodes, graphNode{Name: n, Href: href[n], X: x, Y: y, LX: lx, LY: y + 4, Anchor: anchor, Page: isPage})
	}
	for _, e := range edges {
		a, okA := pos[e.from]
		b, okB := pos[e.to]
		if okA && okB {
			v.Edges = append(v.Edges, graphEdge{X1: a[0], Y1: a[1], X2: b[0], Y2: b[1], Label: e.label, Relation: e.rel})
		}
	}
	s.render(w, r, "graph", "graph", "Knowledge graph", http.StatusOK, page{Data: v})
}

type searchView struct {
	Query   string
	Scope   string // project or projects
	Results []searchResult
	Notes   []string
	Mode    string
}

type searchResult struct {
	Citation, Snippet, Href string
	Score                   float64
	Project                 string // another project's registry id; its files are not served here
}

func (s *Server) search(w http.ResponseWriter, r *http.Request) {
	v := searchView{Query: strings.TrimSpace(r.URL.Query().Get("q")), Scope: r.URL.Query().Get("scope")}
	switch v.Scope {
	case "":
		v.Scope = string(search.ScopeProject)
	case string(search.ScopeProject), string(search.ScopeProjects):
	default:
		s.fail(w, r, http.StatusBadRequest, fmt.Errorf("search: scope %q: want project or projects", v.Scope))
		return
	}
	if v.Query != "" {
		if s.opts.Search == nil {
			s.fail(w, r, http.StatusNotFound, fmt.Errorf("search is not available"))
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
		defer cancel()
		s.mu.Lock()
		resp, err := s.opts.Search(ctx, v.Query, search.Scope(v.Scope), 20)
		s.mu.Unlock()
		if err != nil {
			s.fail(w, r, http.StatusInternalServerError, fmt.Errorf("search: %w", err))
			return
		}
		v.Notes, v.Mode = resp.Notes, resp.Mode
		for _, res := range resp.Results {
			sr := searchResult{Citation: res.Citation, Snippet: res.Snippet, Score: res.Score}
			if resp.Across != nil && res.Project != "" && res.Project != resp.Across.Self {
				sr.Project = res.Project
			} else if _, err := s.resolve(res.Path); err == nil {
				sr.Href = fmt.Sprintf("/%s/memory/file?path=%s&from=%d&to=%d#L%d", r.PathValue("lang"), urlQuery(res.Path), res.StartLine, res.EndLine, res.StartLine)
			}
			v.Results = append(v.Results, sr)
		}
	}
	s.render(w, r, "search", "search", "Search memory", http.StatusOK, page{Data: v})
}
