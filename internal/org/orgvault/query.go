package orgvault

import (
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/text/cite"
	"github.com/cerebro-mem/cerebro/internal/text/excerpt"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
	"github.com/cerebro-mem/cerebro/internal/wiki"
)

// Passage is one passage a search over the vault's root found: its page
// (slash path relative to the root), its lines, score and snippet.
// internal/search ranks passages; the vault only names their pages and
// follows their links.
type Passage struct {
	Path       string
	Start, End int
	Score      float64
	Snippet    string
}

// Hit is one page (or raw file) that answers a query.
type Hit struct {
	Path     string   `json:"path"`
	Title    string   `json:"title"`
	Type     string   `json:"type,omitempty"`
	Status   string   `json:"status,omitempty"`
	Score    float64  `json:"score"`
	Via      string   `json:"via"`      // "search" (a passage the search found) or "link" (linked from a found page)
	Citation string   `json:"citation"` // path#Lx-Ly
	Excerpt  string   `json:"excerpt"`
	Trail    []string `json:"trail,omitempty"` // a link hit's page that links to it, then itself
}

// Answer is the result of [Vault.AnswerFrom].
type Answer struct {
	Query  string   `json:"query"`
	Hits   []Hit    `json:"hits"`
	Linked int      `json:"linked"`          // hits added along the links of found pages
	Notes  []string `json:"notes,omitempty"` // the search's: what made it less than complete
}

// excerptChars bounds a linked page's excerpt, as search bounds a snippet.
const excerptChars = 700

// AnswerFrom makes the answer to question from the passages a search of
// the vault's root found, in their order: one hit a page (its best
// passage), the structural files, the hub and the templates left out.
// With links, the pages the found ones link to fill the places the search
// left (at most limit hits in all): the link walk adds pages, it never
// reorders what the search ranked.
func (v *Vault) AnswerFrom(question string, found []Passage, limit int, links bool) (*Answer, error) {
	vault, err := wiki.Load(v.Root, wiki.Options{Skip: []string{TemplatesDir, RawDir}, MaxFileBytes: v.NoteBytes})
	if err != nil {
		return nil, err
	}
	ans := &Answer{Query: question, Hits: []Hit{}}
	seen := map[string]bool{}
	for _, p := range found {
		if len(ans.Hits) == limit {
			break
		}
		if seen[p.Path] || !answers(p.Path) {
			continue
		}
		seen[p.Path] = true
		h := Hit{Path: p.Path, Title: strings.TrimSuffix(filepath.Base(p.Path), ".md"), Score: p.Score, Via: "search",
			Citation: cite.Lines(p.Path, p.Start, p.End), Excerpt: strings.TrimSpace(p.Snippet)}
		describe(&h, vault.Page(p.Path))
		ans.Hits = append(ans.Hits, h)
	}
	if !links {
		return ans, nil
	}
	want := map[string]bool{}
	for _, t := range textan.QueryTerms(question) {
		want[t] = true
	}
	for i := 0; i < len(ans.Hits) && len(ans.Hits) < limit; i++ {
		from := vault.Page(ans.Hits[i].Path)
		if from == nil || ans.Hits[i].Via != "search" {
			continue
		}
		for _, k := range from.Links {
			to := vault.Resolve(k.Target, from.Path)
			if to == nil || seen[to.Path] || !answers(to.Path) || len(ans.Hits) == limit {
				continue
			}
			seen[to.Path] = true
			h := v.linked(to, want)
			h.Trail = []string{from.Path, to.Path}
			describe(&h, to)
			ans.Hits = append(ans.Hits, h)
			ans.Linked++
		}
	}
	return ans, nil
}

// answers reports whether a file can answer a question: not a structural
// file, the hub or a template, which only point at the pages that do.
func answers(rel string) bool {
	return !structural[rel] && rel != HubFile && !strings.HasPrefix(rel, TemplatesDir+"/")
}

// describe takes a hit's title, type and status from its page, when the
// file is one.
func describe(h *Hit, p *wiki.Page) {
	if p == nil {
		return
	}
	if p.Title != "" {
		h.Title = p.Title
	}
	h.Type, h.Status = p.Type, str(p.Meta["status"])
}

// linked is the hit of a page reached along a link: its first paragraph,
// or the part of it around the question's words.
func (v *Vault) linked(p *wiki.Page, want map[string]bool) Hit {
	h := Hit{Path: p.Path, Title: p.Name, Via: "link", Citation: cite.Lines(p.Path, max(p.BodyLine, 1), max(p.BodyLine, 1))}
	data, _ := safefs.ReadNote(filepath.Join(v.Root, filepath.FromSlash(p.Path)), v.NoteBytes)
	lines := strings.Split(string(data), "\n")
	from := max(p.BodyLine, 1) - 1
	for from < len(lines) && (strings.TrimSpace(lines[from]) == "" || strings.HasPrefix(lines[from], "#")) {
		from++
	}
	to := from
	for to < len(lines) && strings.TrimSpace(lines[to]) != "" {
		to++
	}
	if from < to {
		ex := excerpt.Cut(lines[from:to], want, excerptChars)
		h.Citation = cite.Lines(p.Path, from+1+ex.First, from+1+ex.Last)
		h.Excerpt = strings.TrimSpace(ex.Text)
	}
	return h
}

func str(v any) string { s, _ := v.(string); return s }
