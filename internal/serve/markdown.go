package serve

import (
	"bytes"
	"html"
	"html/template"
	"net/url"
	"path"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/wiki"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// markdown renders memory text as a person reads it: CommonMark with GFM
// tables, lists and autolinks (github.com/yuin/goldmark), and Obsidian's
// [[wikilinks]] resolved to this server's pages. Memory text is hostile:
// goldmark's default of omitting raw HTML stays on, and every link that
// is not http, https, mailto or a relative address loses its link and
// keeps its text.
type markdown struct {
	gm goldmark.Markdown
}

// linkTarget resolves a wikilink to a page address; "" is a broken link.
type linkTarget func(l wiki.Link) string

// newMarkdown makes a renderer whose wikilinks resolve through target.
func newMarkdown(target linkTarget, rewrite func(dest string) string) *markdown {
	return &markdown{gm: goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithParserOptions(
			// Before the link parser (200), which would read [[x]] as text.
			parser.WithInlineParsers(util.Prioritized(&wikiParser{target: target}, 199)),
			parser.WithASTTransformers(util.Prioritized(&linkGuard{rewrite: rewrite}, 100)),
		),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(wikiRenderer{}, 100))),
	)}
}

// render turns Markdown into HTML that is safe to put on a page.
func (m *markdown) render(src string) template.HTML {
	var b bytes.Buffer
	if err := m.gm.Convert([]byte(src), &b); err != nil {
		return template.HTML("<pre>" + template.HTMLEscapeString(src) + "</pre>")
	}
	return template.HTML(b.String())
}

// markdown is a renderer for one request: wikilinks resolve in the
// project's long-term vault (vt, nil: not loaded) from the page at from (a
// vault path), and evidence links [[daily/YYYY-MM-DD]] open the day's
// distillate.
func (s *Server) markdown(q *req, vt *wiki.Vault, from string) *markdown {
	p := s.linkPage(q)
	fileURL := func(rel string) string { return p.U("/memory/file", "path", rel) }
	target := s.linker(q, vt, from)
	rewrite := func(dest string) string {
		// A relative link to another page of the vault opens it here.
		if vt == nil || strings.Contains(dest, ":") || strings.HasPrefix(dest, "#") || strings.HasPrefix(dest, "/") {
			return dest
		}
		d, err := url.PathUnescape(strings.SplitN(dest, "#", 2)[0])
		if err != nil {
			return dest
		}
		if pg := vt.Page(path.Clean(path.Join(path.Dir(from), d))); pg != nil {
			return fileURL(longRel + "/" + pg.Path)
		}
		return dest
	}
	return newMarkdown(target, rewrite)
}

// linker resolves wikilinks of the page at from (a vault path) to this
// server's pages: a page of the long-term vault, or the day's distillate
// an evidence link [[daily/YYYY-MM-DD]] names; "" when neither exists.
func (s *Server) linker(q *req, vt *wiki.Vault, from string) linkTarget {
	p := s.linkPage(q)
	return func(l wiki.Link) string {
		if vt != nil {
			if pg := vt.Resolve(l.Target, from); pg != nil {
				return p.U("/memory/file", "path", longRel+"/"+pg.Path)
			}
		}
		if rel := dailyOf(q.p.Root, l.Target); rel != "" {
			return p.U("/memory/file", "path", rel)
		}
		return ""
	}
}

// dailyOf is the daily distillate an evidence link names (daily/DAY or
// DAY), relative to the project root, when the file is there.
func dailyOf(root, target string) string {
	day := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(target, "/"), "daily/"), ".md")
	if _, ok := daily.DateOf(day + ".md"); !ok {
		return ""
	}
	for _, dir := range []string{".claude/memory_short/daily/", ".claude/memory_short/daily/_archive/"} {
		if _, err := resolve(root, dir+day+".md"); err == nil {
			return dir + day + ".md"
		}
	}
	return ""
}

// wikiLink is a [[wikilink]] in the tree: a link when Href is set, else a
// broken link shown as such.
type wikiLink struct {
	ast.BaseInline
	Label, Href string
}

var kindWikiLink = ast.NewNodeKind("WikiLink")

func (n *wikiLink) Kind() ast.NodeKind { return kindWikiLink }

func (n *wikiLink) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"Label": n.Label, "Href": n.Href}, nil)
}

// wikiParser reads [[target#heading|alias]] and ![[embed]] as wiki.ParseLinks
// does; code spans never reach it (their parser consumes them first).
type wikiParser struct{ target linkTarget }

func (p *wikiParser) Trigger() []byte { return []byte{'!', '['} }

func (p *wikiParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	skip := 0
	if bytes.HasPrefix(line, []byte("!")) {
		skip = 1
	}
	if !bytes.HasPrefix(line[skip:], []byte("[[")) {
		return nil
	}
	end := bytes.Index(line[skip+2:], []byte("]]"))
	if end < 0 {
		return nil
	}
	inner := string(line[skip+2 : skip+2+end])
	ls := wiki.ParseLinks("[["+inner+"]]", 1)
	if len(ls) != 1 {
		return nil
	}
	block.Advance(skip + 2 + end + 2)
	l := ls[0]
	label := l.Alias
	if label == "" {
		label = l.Target
		if l.Heading != "" {
			label = strings.TrimPrefix(label+" › "+l.Heading, " › ")
		}
	}
	n := &wikiLink{Label: label, Href: p.target(l)}
	if n.Href != "" && l.Heading != "" {
		n.Href += "#" + url.PathEscape(l.Heading)
	}
	return n
}

// wikiRenderer writes a wikilink, escaped like every text.
type wikiRenderer struct{}

func (wikiRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindWikiLink, func(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		n := node.(*wikiLink)
		if n.Href == "" {
			w.WriteString(`<span class="broken" title="no such page">[[`)
			w.WriteString(template.HTMLEscapeString(n.Label))
			w.WriteString(`]]</span>`)
			return ast.WalkContinue, nil
		}
		w.WriteString(`<a class="wl" href="`)
		w.WriteString(template.HTMLEscapeString(n.Href))
		w.WriteString(`">`)
		w.WriteString(template.HTMLEscapeString(n.Label))
		w.WriteString(`</a>`)
		return ast.WalkContinue, nil
	})
}

// linkGuard keeps only links a page may follow: http, https, mailto and
// addresses without a scheme (relative ones through rewrite). Any other
// link is unwrapped to its text, and an image becomes its alt text: a
// page never loads anything memory names.
type linkGuard struct{ rewrite func(string) string }

func (g *linkGuard) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	src := reader.Source()
	var unwrap []ast.Node
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch l := n.(type) {
		case *ast.Link:
			if !safeURL(string(l.Destination)) {
				unwrap = append(unwrap, l)
			} else if g.rewrite != nil {
				l.Destination = []byte(g.rewrite(string(l.Destination)))
			}
		case *ast.Image:
			unwrap = append(unwrap, l)
		case *ast.AutoLink:
			if !safeURL(string(l.URL(src))) {
				unwrap = append(unwrap, l)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, n := range unwrap {
		parent := n.Parent()
		if parent == nil {
			continue
		}
		if a, ok := n.(*ast.AutoLink); ok {
			parent.ReplaceChild(parent, n, ast.NewString(a.Label(src)))
			continue
		}
		for c := n.FirstChild(); c != nil; {
			next := c.NextSibling()
			parent.InsertBefore(parent, n, c)
			c = next
		}
		parent.RemoveChild(parent, n)
	}
}

// safeURL accepts http, https and mailto addresses and those without a
// scheme. The destination is read as the browser will: entities decoded
// ("java&#9;script:"), tabs and newlines dropped ("java\tscript:").
func safeURL(u string) bool {
	u = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || r < ' ' {
			return -1
		}
		return r
	}, strings.TrimSpace(html.UnescapeString(u)))
	i := strings.IndexAny(u, ":/?#")
	if i < 0 || u[i] != ':' {
		return true
	}
	switch strings.ToLower(u[:i]) {
	case "http", "https", "mailto":
		return true
	}
	return false
}

// snippetText is a search passage as a person reads it in a list of
// results: the text of its Markdown without the syntax (no #, **, |, [[ ]]),
// one line per block, and without HTML comments — cerebro's segment
// markers among them, whole or cut off at the passage's edge.
func snippetText(src string) string {
	src = dropComments(src)
	if rest, ok := strings.CutPrefix(src, "---\n"); ok {
		// A passage from a file's first line carries its frontmatter.
		if i := strings.Index(rest, "\n---"); i >= 0 {
			src = rest[i+4:]
		}
	}
	plain := newMarkdown(func(wiki.Link) string { return "" }, nil)
	b := []byte(src)
	doc := plain.gm.Parser().Parse(text.NewReader(b))
	var out strings.Builder
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch x := n.(type) {
		case *ast.Text:
			if entering {
				out.Write(x.Segment.Value(b))
				if x.HardLineBreak() {
					out.WriteByte('\n')
				} else if x.SoftLineBreak() {
					out.WriteByte(' ')
				}
			}
		case *ast.String:
			if entering {
				out.Write(x.Value)
			}
		case *wikiLink:
			if entering {
				out.WriteString(x.Label)
			}
		case *ast.AutoLink:
			if entering {
				out.Write(x.Label(b))
			}
		case *ast.RawHTML, *ast.HTMLBlock:
			return ast.WalkSkipChildren, nil
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			if entering {
				lines := n.Lines()
				for i := 0; i < lines.Len(); i++ {
					seg := lines.At(i)
					out.Write(seg.Value(b))
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.ListItem:
			if entering {
				out.WriteString("• ")
			}
		case *extast.TableCell:
			if !entering && n.NextSibling() != nil {
				out.WriteString(" · ")
			}
			return ast.WalkContinue, nil
		}
		if !entering && n.Type() == ast.TypeBlock && n.Kind() != ast.KindList && n.Kind() != ast.KindDocument {
			if s := out.String(); s != "" && !strings.HasSuffix(s, "\n") {
				out.WriteByte('\n')
			}
		}
		return ast.WalkContinue, nil
	})
	lines := strings.Split(out.String(), "\n")
	kept := lines[:0]
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" && l != "•" {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n")
}

// dropComments removes HTML comments, and the part of one a passage cut
// through (passages are whole lines, so only a comment of several lines):
// from its start to a line ending in "-->" with no "<!--" before it, and
// from an unclosed "<!--" to its end. An arrow inside a line ("a --> b")
// stays.
func dropComments(s string) string {
	if end := strings.Index(s, "-->"); end >= 0 && !strings.Contains(s[:end], "<!--") {
		if rest := s[end+3:]; strings.TrimSpace(strings.SplitN(rest, "\n", 2)[0]) == "" {
			s = rest
		}
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "<!--")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		j := strings.Index(s[i+4:], "-->")
		if j < 0 {
			return b.String()
		}
		s = s[i+4+j+3:]
	}
}
