package blackbox

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"net/url"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/text/cite"
	"github.com/cerebro-mem/cerebro/internal/text/excerpt"
	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
)

// Hit is one passage a text or vector search found: the lines Line..End
// of a section (a heading to the next), focused on the question's words.
type Hit struct {
	Path    string  // slash path relative to the project root
	Line    int     // first line shown (1-based)
	End     int     // last line shown
	Heading string  // the section's heading
	Text    string  // lines Line..End, at most PassageChars, cut at word boundaries (an ellipsis where a line is cut)
	Score   float64 // 0..1: the share of the question's content words present
	Record  string  // the record id when the passage is a remembered record
	Object  string  // the object id a relearn summary points to
	Scope   Scope
	// section is the whole section's text (markers out, cut at 1,200
	// characters), what the fact id is made of: the same section is the
	// same fact whichever part of it a question shows.
	section string
	at      int // the section's first line
	src     *passage
	q       []string // the query's stems, which focus cuts the text around
}

// PassageChars bounds the text of a hit: the lines around the question's
// words, not the whole section.
const PassageChars = 700

// Cite is the hit's lines, path#Lstart-Lend (see package cite).
func (h Hit) Cite() string { return cite.Lines(h.Path, h.Line, h.End) }

// Fact names the section the hit comes from: its record id when it is a
// remembered record.
func (h Hit) Fact() string {
	if h.Record != "" {
		return h.Record
	}
	return shortHash("m-", h.Path, h.section)
}

// TextSearcher is level 2 (and, with embeddings, level 4): a search over
// the memory's Markdown. memhook plugs internal/search's FTS5 indexes in
// here (they point at line ranges, [ScanRanges] scores them); [MarkdownScan] reads
// the files itself and is the fallback.
type TextSearcher interface {
	// Search returns at most limit hits, best first. Score is in 0..1: at
	// level 2 the share of the question's content words a passage holds
	// (compared with MinCoverage), at level 4 a similarity (compared with
	// Box.VectorMin). An error makes the level report "error", not fail
	// the recall.
	Search(ctx context.Context, query string, limit int) ([]Hit, error)
}

// MinCoverage is the share of a question's content words a passage must
// hold to count as an answer rather than noise.
const MinCoverage = 0.6

// MarkdownScan scans Markdown files under Dirs, passage by passage (a
// passage runs from one heading to the next), and scores each by the share
// of the question's stemmed content words it holds. It reads every file on
// every search: real and simple, and linear in the memory's size.
type MarkdownScan struct {
	Base string   // paths in hits are relative to it
	Dirs []string // absolute directories to scan
	Skip []string // directory names left out (raw, graph, tables, denials)
	// SkipFiles are file names left out wherever they are: generated lists
	// (index.md, log.md) repeat every title and would answer everything.
	SkipFiles []string
}

var marker = lazyregexp.New(`<!-- cerebro:record ([^>]*)-->`)

// Search implements [TextSearcher].
func (m MarkdownScan) Search(ctx context.Context, query string, limit int) ([]Hit, error) {
	q := uniq(terms(query))
	if len(q) == 0 {
		return nil, nil
	}
	skip, skipFile := map[string]bool{}, map[string]bool{}
	for _, s := range m.Skip {
		skip[s] = true
	}
	for _, s := range m.SkipFiles {
		skipFile[strings.ToLower(s)] = true
	}
	var hits []Hit
	for _, dir := range m.Dirs {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // a missing or unreadable folder holds no answer
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if d.IsDir() {
				if p != dir && (strings.HasPrefix(d.Name(), ".") || skip[d.Name()]) {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.EqualFold(filepath.Ext(p), ".md") || skipFile[strings.ToLower(d.Name())] {
				return nil
			}
			if info, err := d.Info(); err != nil || info.Size() > 4<<20 {
				return nil
			}
			rel, _ := filepath.Rel(m.Base, p)
			hits = append(hits, scanFile(p, filepath.ToSlash(rel), q)...)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return best(hits, limit), nil
}

// Range is a line range of a file an index pointed at.
type Range struct {
	Path     string // absolute
	From, To int
}

// ScanRanges scores the passages overlapping the given ranges the way
// [MarkdownScan] scores every passage. An index (internal/search) finds
// where the words are; this decides, so both paths answer by the same
// measure, at a cost that grows with the ranges, not the files.
func ScanRanges(base string, ranges []Range, query string, limit int) []Hit {
	q := uniq(terms(query))
	if len(q) == 0 {
		return nil
	}
	files := map[string][]*passage{}
	seen := map[*passage]bool{}
	var hits []Hit
	for _, r := range ranges {
		ps, ok := files[r.Path]
		if !ok {
			ps = passages(r.Path)
			files[r.Path] = ps
		}
		rel, err := filepath.Rel(base, r.Path)
		if err != nil {
			rel = r.Path
		}
		for _, p := range ps {
			if seen[p] || p.line > r.To || p.end < r.From {
				continue
			}
			seen[p] = true
			if h, ok := score(filepath.ToSlash(rel), p, strings.TrimSpace(p.body.String()), q); ok {
				hits = append(hits, h)
			}
		}
	}
	return best(hits, limit)
}

// best orders hits by score, then place, and keeps limit of them.
func best(hits []Hit, limit int) []Hit {
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].Path+"\x00"+itoa(hits[i].Line) < hits[j].Path+"\x00"+itoa(hits[j].Line)
	})
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	for i := range hits {
		hits[i].focus()
	}
	return hits
}

// Excluded reports whether a path (slash-separated, relative to a memory
// root) lies in a skipped folder or is a skipped file.
func (m MarkdownScan) Excluded(rel string) bool {
	parts := strings.Split(rel, "/")
	for _, d := range parts[:len(parts)-1] {
		if strings.HasPrefix(d, ".") {
			return true
		}
		for _, s := range m.Skip {
			if d == s {
				return true
			}
		}
	}
	for _, f := range m.SkipFiles {
		if strings.EqualFold(parts[len(parts)-1], f) {
			return true
		}
	}
	return false
}

func itoa(n int) string { return fmt.Sprintf("%09d", n) }

type passage struct {
	line    int
	end     int // last line
	heading string
	body    strings.Builder
	first   int      // line number of lines[0]
	lines   []string // the body's lines
}

// passages splits a Markdown file into passages, a heading to the next;
// frontmatter is not a passage.
func passages(path string) []*passage {
	f, err := safefs.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []*passage
	cur := &passage{line: 1, first: 1}
	inFront := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	n := 0
	for n = 1; sc.Scan(); n++ {
		line := sc.Text()
		if n == 1 && strings.TrimSpace(line) == "---" {
			inFront = true
			continue
		}
		if inFront {
			if strings.TrimSpace(line) == "---" {
				inFront = false
				cur.line, cur.first = n+1, n+1
			}
			continue
		}
		if strings.HasPrefix(line, "#") && strings.HasPrefix(strings.TrimLeft(line, "#"), " ") {
			cur.end = n - 1
			out = append(out, cur)
			cur = &passage{line: n, first: n + 1, heading: strings.TrimSpace(strings.TrimLeft(line, "#"))}
			continue
		}
		cur.body.WriteString(line)
		cur.body.WriteByte('\n')
		cur.lines = append(cur.lines, line)
	}
	cur.end = n - 1
	out = append(out, cur)
	var kept []*passage
	for _, p := range out {
		if p.heading != "" || strings.TrimSpace(p.body.String()) != "" {
			kept = append(kept, p)
		}
	}
	return kept
}

func scanFile(path, rel string, q []string) []Hit {
	var out []Hit
	for _, p := range passages(path) {
		if h, ok := score(rel, p, strings.TrimSpace(p.body.String()), q); ok {
			out = append(out, h)
		}
	}
	return out
}

// PassagesIn returns the passages of a file that overlap lines from..to and
// hold text (with their record marker's id, object and scope), each focused
// on the query's words, for hits an index located by a chunk's line range.
func PassagesIn(base, path string, from, to int, query string) []Hit {
	q := uniq(terms(query))
	rel, err := filepath.Rel(base, path)
	if err != nil {
		rel = path
	}
	var out []Hit
	for _, p := range passages(path) {
		body := strings.TrimSpace(marker.ReplaceAllString(p.body.String(), ""))
		if p.line <= to && p.end >= from && body != "" {
			h := describe(filepath.ToSlash(rel), p, strings.TrimSpace(p.body.String()), q)
			h.focus()
			out = append(out, h)
		}
	}
	return out
}

func score(rel string, p *passage, text string, q []string) (Hit, bool) {
	have := map[string]bool{}
	for _, t := range terms(p.heading + "\n" + marker.ReplaceAllString(text, "")) {
		have[t] = true
	}
	n := 0
	for _, t := range q {
		if have[t] {
			n++
		}
	}
	if n == 0 {
		return Hit{}, false
	}
	h := describe(rel, p, text, q)
	h.Score = float64(n) / float64(len(q))
	return h, true
}

// describe turns a passage into a hit, reading its record marker; its
// text is cut by focus, once the hit is kept.
func describe(rel string, p *passage, text string, q []string) Hit {
	h := Hit{Path: rel, Line: p.line, End: p.line, Heading: p.heading, at: p.line, src: p, q: q}
	if m := marker.FindStringSubmatch(text); m != nil {
		attrs := parseAttrs(m[1])
		h.Record, h.Object = attrs["id"], attrs["object"]
		h.Scope = Scope{Calendar: attrs["calendar"], Geo: attrs["geo"]}
	}
	h.section = strings.TrimSpace(marker.ReplaceAllString(text, ""))
	if r := []rune(h.section); len(r) > 1200 {
		h.section = string(r[:1200]) + "…"
	}
	return h
}

// focus sets the hit's text to the lines of its section around the best
// span of the query's stems (see [excerpt.Cut]); a section with no body
// is its heading's line and no text.
func (h *Hit) focus() {
	p := h.src
	if p == nil {
		return
	}
	h.src = nil
	lines := make([]string, len(p.lines))
	for i, l := range p.lines {
		lines[i] = marker.ReplaceAllString(l, "")
	}
	set := make(map[string]bool, len(h.q))
	for _, t := range h.q {
		set[t] = true
	}
	if ex := excerpt.Cut(lines, set, PassageChars); strings.TrimSpace(ex.Text) != "" {
		h.Text = strings.TrimSpace(ex.Text)
		h.Line, h.End = p.first+ex.First, p.first+ex.Last
	}
}

// parseAttrs reads key=value pairs of a record marker; values are
// query-escaped so a place with spaces stays one value.
func parseAttrs(s string) map[string]string {
	out := map[string]string{}
	for _, f := range strings.Fields(s) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			continue
		}
		if u, err := url.QueryUnescape(v); err == nil {
			v = u
		}
		out[k] = v
	}
	return out
}
