package search

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// Fields (BM25F): a chunk is scored on its body and on two short fields,
// the file's title (its name, frontmatter title and aliases) and the
// headings over the chunk (the chain of headings in effect where it
// starts and those inside it). A query word in a field counts as that
// many occurrences in the body, before BM25's saturation: a note titled
// «Воскресная уборка» is about that, however few times its body says so.
//
// FTS5 picks the candidates with these weights too ([ftsRank]), which
// the desk index stores: [makeSchema] sets them again when they changed.
const (
	titleWeight   = 3.0
	headingWeight = 1.5
)

// ftsRank is FTS5's rank of the candidates over the columns stems,
// title, heads and root: the text weighted as the ranking weighs it, the
// root column only filtering.
func ftsRank(title, heading float64) string {
	return fmt.Sprintf("bm25(1.0, %g, %g, 0.0)", title, heading)
}

// linkPenalty is how much of its score a chunk made only of links loses
// (scaled by its share of link text): a list of [[links]] names many
// topics and explains none of them.
const linkPenalty = 0.5

// fileTitle is the stems of a file's titles: its name without folder and
// extension, and the frontmatter's title and aliases. It also gives the
// frontmatter (nil when there is none or it does not parse), read once
// for the title and for frontmatterStems.
func fileTitle(rel string, data []byte) (string, map[string]any) {
	parts := []string{strings.TrimSuffix(path.Base(rel), path.Ext(rel))}
	fm := noteFrontmatter(data)
	for _, k := range []string{"title", "aliases", "alias"} {
		parts = append(parts, strs(fm[k])...)
	}
	return textan.StemmedText(strings.Join(parts, "\n")), fm
}

// frontmatterStems is the stems of the string values of a note's
// frontmatter (not its keys: "permalink" or "mobile" say nothing of the
// note).
func frontmatterStems(fm map[string]any) string {
	var vals []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			vals = append(vals, x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(fm)
	sort.Strings(vals) // maps have no order; the index must not vary run to run
	return textan.StemmedText(strings.Join(vals, "\n"))
}

// strs is a YAML value's strings: one, or a list's.
func strs(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// headings gives, for each line of a file (0-based), the Markdown
// headings in effect there (the chain of its section, outermost first),
// and which lines are headings. Fenced code is skipped: a "# comment" in a
// shell block is not a heading.
func headings(lines []string) (chain [][]string, isHead []bool) {
	chain = make([][]string, len(lines))
	isHead = make([]bool, len(lines))
	var stack []string // index = level−1
	fence := ""
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			chain[i] = stack
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = t[:3]
			chain[i] = stack
			continue
		}
		if lvl := headingLevel(l); lvl > 0 {
			stack = append(append([]string(nil), stack[:min(lvl-1, len(stack))]...), strings.TrimSpace(strings.TrimLeft(l, "#")))
			isHead[i] = true
		}
		chain[i] = stack
	}
	return chain, isHead
}

// headingLevel is the level of an ATX heading line ("## x" is 2), else 0.
func headingLevel(l string) int {
	n := 0
	for n < len(l) && l[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n >= len(l) || (l[n] != ' ' && l[n] != '\t') {
		return 0
	}
	return n
}

// chunkHeadings is the stems of the headings over lines [from, to) of a
// file (0-based): the chain in effect at from, and every heading inside.
func chunkHeadings(lines []string, chain [][]string, isHead []bool, from, to int) string {
	var hs []string
	if from < len(chain) {
		hs = append(hs, chain[from]...)
		if isHead[from] && len(hs) > 0 {
			hs = hs[:len(hs)-1] // counted below, with the other headings inside
		}
	}
	for i := from; i < to && i < len(lines); i++ {
		if isHead[i] {
			hs = append(hs, strings.TrimSpace(strings.TrimLeft(lines[i], "#")))
		}
	}
	return textan.StemmedText(strings.Join(hs, "\n"))
}

// linkShare is the share of a chunk's text (without blanks) inside
// wikilinks and Markdown links, and bare list markers around them.
func linkShare(text string) float64 {
	total, in := 0, 0
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		total += len(t)
		in += linkChars(t)
	}
	if total == 0 {
		return 0
	}
	return float64(in) / float64(total)
}

// linkChars counts the bytes of a line inside [[...]] or [..](..), and
// a list marker before a line that is all links.
func linkChars(t string) int {
	n := 0
	rest := t
	for {
		i := strings.Index(rest, "[")
		if i < 0 {
			break
		}
		rest = rest[i:]
		var j int
		if strings.HasPrefix(rest, "[[") {
			j = strings.Index(rest, "]]")
			if j < 0 {
				break
			}
			j += 2
		} else {
			k := strings.Index(rest, "](")
			if k < 0 {
				break
			}
			e := strings.Index(rest[k:], ")")
			if e < 0 {
				break
			}
			j = k + e + 1
		}
		n += j
		rest = rest[j:]
	}
	if n > 0 {
		bare := strings.TrimLeft(t, "-*+0123456789. \t")
		n += len(t) - len(bare)
	}
	return min(n, len(t))
}
