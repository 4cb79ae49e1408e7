package blackbox

import (
	"bufio"
	"context"
	"net/url"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/text/cite"
	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
)

// Hit is one passage a text or vector search found: lines Line..End of a
// section (a heading to the next), as the search showed them.
type Hit struct {
	Path    string  // slash path relative to the project root
	Line    int     // first line shown (1-based)
	End     int     // last line shown
	Heading string  // the section's heading
	Text    string  // lines Line..End, at most PassageChars (an ellipsis where a line is cut)
	Score   float64 // 0..1: at level 2 search's coverage of the question (see MinCoverage), at level 4 a similarity
	Record  string  // the record id when the passage is a remembered record
	Object  string  // the object id a relearn summary points to
	Scope   Scope
	// Project is the registry id of another project the passage comes
	// from (its Path then reads id:path); "" for this project's.
	Project string
	// section is the whole section's text (markers out, cut at 1,200
	// characters), what the fact id is made of: the same section is the
	// same fact whichever part of it a question shows.
	section string
	at      int // the section's first line
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
// the memory's Markdown. [Indexed] is internal/search's, the one ranker
// of passages.
type TextSearcher interface {
	// Search returns at most limit hits, best first. Score is in 0..1: at
	// level 2 the share of the question's informative weight a passage
	// holds (compared with MinCoverage), at level 4 a similarity (compared
	// with Box.VectorMin). An error makes the level report "error", not
	// fail the recall.
	Search(ctx context.Context, query string, limit int) ([]Hit, error)
}

// MinCoverage is the share of a question's informative weight a passage
// must hold to count as an answer rather than noise, and so to stop the
// ladder at level 2: search's measure (see search.Share), where a word
// rare in the memory weighs more than a common one and the words of
// asking ("remind me", "could", "напомни") hardly count. It is
// auto-recall's default gate (search.auto_recall_min_score).
const MinCoverage = 0.5

var marker = lazyregexp.New(`<!-- cerebro:record ([^>]*)-->`)

// section is a heading and the lines under it, to the next heading.
type section struct {
	line    int // the heading's line (the first line when there is none)
	end     int // last line
	heading string
	first   int      // line number of lines[0]
	lines   []string // the body's lines
}

func (s *section) body() string { return strings.Join(s.lines, "\n") }

// sections splits a Markdown file into sections, a heading to the next;
// frontmatter is not a section, nor is a section with no heading and no
// text.
func sections(path string) []*section {
	f, err := safefs.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []*section
	cur := &section{line: 1, first: 1}
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
			cur = &section{line: n, first: n + 1, heading: strings.TrimSpace(strings.TrimLeft(line, "#"))}
			continue
		}
		cur.lines = append(cur.lines, line)
	}
	cur.end = n - 1
	out = append(out, cur)
	var kept []*section
	for _, s := range out {
		if s.heading != "" || strings.TrimSpace(s.body()) != "" {
			kept = append(kept, s)
		}
	}
	return kept
}

// describe is a hit on section s of the file at rel, with its record
// marker read: its text is set by the caller.
func describe(rel string, s *section) Hit {
	text := strings.TrimSpace(s.body())
	h := Hit{Path: rel, Line: s.line, End: s.line, Heading: s.heading, at: s.line}
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
