package orgvault

import (
	"bytes"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/longterm/wiki"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/text/cite"
	"github.com/cerebro-mem/cerebro/internal/text/excerpt"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// Hit is one page (or raw file) that answers a query.
type Hit struct {
	Path     string   `json:"path"`
	Title    string   `json:"title"`
	Type     string   `json:"type,omitempty"`
	Status   string   `json:"status,omitempty"`
	Score    float64  `json:"score"`
	Via      string   `json:"via"`      // "graph" (reached along links) or "text" (the fallback search)
	Citation string   `json:"citation"` // path#Lx-Ly
	Excerpt  string   `json:"excerpt"`
	Trail    []string `json:"trail,omitempty"` // pages walked from the start to this one
}

// Answer is the result of [Vault.Query].
type Answer struct {
	Query    string   `json:"query"`
	Terms    []string `json:"terms"`
	Hits     []Hit    `json:"hits"`
	Walked   int      `json:"walked"`   // pages visited along links
	Fallback bool     `json:"fallback"` // the text search added hits
}

var stopwords = map[string]bool{
	"и": true, "в": true, "во": true, "на": true, "с": true, "со": true, "по": true, "о": true, "об": true, "к": true, "у": true, "из": true, "за": true, "для": true, "как": true, "что": true, "это": true, "не": true, "ли": true, "или": true, "а": true, "но": true, "мы": true, "наш": true, "нас": true, "какой": true, "какие": true, "где": true, "когда": true,
	"the": true, "a": true, "an": true, "of": true, "to": true, "in": true, "on": true, "for": true, "and": true, "or": true, "is": true, "are": true, "how": true, "what": true, "we": true, "do": true, "does": true, "our": true, "with": true, "which": true,
}

// Terms splits text into stemmed search terms with the shared analyser
// (Russian and English Snowball stemmers, chosen per word by its
// alphabet), the vault's own stop words out too.
func Terms(text string) []string { return textan.Terms(text, stopwords) }

// doc is a text prepared for scoring: its stemmed terms per line.
type doc struct {
	path, title string
	lines       [][]string // stemmed terms of each file line (index 0 = line 1)
	raw         []string
	titleTerms  map[string]bool
	body        int // 0-based index of the first line after the frontmatter
}

func newDoc(rel, title string, data []byte, bodyLine int) *doc {
	d := &doc{path: rel, title: title, titleTerms: map[string]bool{}, body: max(bodyLine-1, 0)}
	d.raw = strings.Split(string(data), "\n")
	for _, l := range d.raw {
		d.lines = append(d.lines, Terms(l))
	}
	for _, t := range Terms(title) {
		d.titleTerms[t] = true
	}
	return d
}

// score rewards distinct query terms found, title matches, and (less)
// repetitions; it returns the best line range to cite.
func (d *doc) score(terms []string) (float64, int, int) {
	want := map[string]bool{}
	for _, t := range terms {
		want[t] = true
	}
	counts := map[string]int{}
	bestLine, bestN := -1, 0
	for i, ts := range d.lines {
		if i < d.body {
			continue // the frontmatter is scored through the title only
		}
		seen := map[string]bool{}
		for _, t := range ts {
			if want[t] {
				counts[t]++
				seen[t] = true
			}
		}
		heading := func(i int) bool { return strings.HasPrefix(d.raw[i], "#") }
		if len(seen) > bestN || len(seen) == bestN && bestN > 0 && heading(bestLine) && !heading(i) {
			bestLine, bestN = i, len(seen)
		}
	}
	s := 0.0
	for t := range want {
		if d.titleTerms[t] {
			s += 3
		}
		if c := counts[t]; c > 0 {
			s += 2 + float64(min(c, 5))*0.5
		}
	}
	if bestLine < 0 {
		return s, 0, 0
	}
	from, to := bestLine, bestLine
	for from > d.body && from > bestLine-3 && strings.TrimSpace(d.raw[from-1]) != "" && !strings.HasPrefix(d.raw[from], "#") {
		from--
	}
	for to < len(d.raw)-1 && to < bestLine+3 && strings.TrimSpace(d.raw[to+1]) != "" && !strings.HasPrefix(d.raw[to+1], "#") {
		to++
	}
	return s, from + 1, to + 1
}

// excerptChars bounds an answer's excerpt, as search bounds a snippet.
const excerptChars = 700

func (d *doc) hit(terms []string, via string) (Hit, bool) {
	s, a, b := d.score(terms)
	if s == 0 {
		return Hit{}, false
	}
	h := Hit{Path: d.path, Title: d.title, Score: s, Via: via}
	if a > 0 {
		// A vault note's paragraph can be one long line: show the part
		// around the query's words, cited by the lines it shows.
		want := make(map[string]bool, len(terms))
		for _, t := range terms {
			want[t] = true
		}
		ex := excerpt.Cut(d.raw[a-1:b], want, excerptChars)
		h.Citation = cite.Lines(d.path, a+ex.First, a+ex.Last)
		h.Excerpt = strings.TrimSpace(ex.Text)
	} else {
		h.Citation = cite.Lines(d.path, 1, 1)
	}
	return h, true
}

// Query answers a question: it walks the link graph breadth-first from the
// hub (then from index.md for what the hub does not reach), scoring each
// page it passes, and falls back to a text search over pages the walk
// never reached and the raw/ files. At most limit hits come back.
func (v *Vault) Query(question string, limit int) (*Answer, error) {
	vault, err := wiki.Load(v.Root, wiki.Options{Skip: []string{TemplatesDir, RawDir}, MaxFileBytes: v.NoteBytes})
	if err != nil {
		return nil, err
	}
	ans := &Answer{Query: question, Terms: Terms(question)}
	if len(ans.Terms) == 0 {
		return ans, nil
	}
	parent := map[string]string{}
	visited := map[string]bool{}
	var order []*wiki.Page
	for _, start := range []string{HubFile, IndexFile} {
		s := vault.Page(start)
		if s == nil || visited[s.Path] {
			continue
		}
		visited[s.Path] = true
		queue := []*wiki.Page{s}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			order = append(order, p)
			for _, k := range p.Links {
				to := vault.Resolve(k.Target, p.Path)
				// The index is a second start, not a shortcut from the hub.
				if to == nil || visited[to.Path] || (to.Path == IndexFile && start == HubFile) || to.Path == LogFile {
					continue
				}
				visited[to.Path] = true
				parent[to.Path] = p.Path
				queue = append(queue, to)
			}
		}
	}
	ans.Walked = len(order)
	trail := func(p string) []string {
		var t []string
		for ; p != ""; p = parent[p] {
			t = append([]string{p}, t...)
		}
		return t
	}
	load := func(p *wiki.Page) *doc {
		data, _ := safefs.ReadNote(filepath.Join(v.Root, filepath.FromSlash(p.Path)), v.NoteBytes)
		return newDoc(p.Path, p.Title, data, p.BodyLine)
	}
	var hits []Hit
	for _, p := range order {
		if structural[p.Path] || p.Path == HubFile {
			continue
		}
		if h, ok := load(p).hit(ans.Terms, "graph"); ok {
			h.Type, h.Status, h.Trail = p.Type, str(p.Meta["status"]), trail(p.Path)
			hits = append(hits, h)
		}
	}
	sortHits(hits)
	if len(hits) < limit {
		var more []Hit
		for _, p := range vault.Pages {
			if visited[p.Path] || structural[p.Path] {
				continue
			}
			if h, ok := load(p).hit(ans.Terms, "text"); ok {
				h.Type, h.Status = p.Type, str(p.Meta["status"])
				more = append(more, h)
			}
		}
		filepath.WalkDir(filepath.Join(v.Root, RawDir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") {
				return nil
			}
			data, err := safefs.ReadNote(p, v.NoteBytes)
			if err != nil || len(data) > 4<<20 || bytes.IndexByte(data, 0) >= 0 {
				return nil
			}
			rel, _ := filepath.Rel(v.Root, p)
			if h, ok := newDoc(filepath.ToSlash(rel), d.Name(), data, 1).hit(ans.Terms, "text"); ok {
				more = append(more, h)
			}
			return nil
		})
		sortHits(more)
		ans.Fallback = len(more) > 0
		hits = append(hits, more...)
	}
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	ans.Hits = hits
	return ans, nil
}

func sortHits(h []Hit) {
	sort.SliceStable(h, func(i, j int) bool {
		if h[i].Score != h[j].Score {
			return h[i].Score > h[j].Score
		}
		return len(h[i].Trail) < len(h[j].Trail)
	})
}

func str(v any) string { s, _ := v.(string); return s }
