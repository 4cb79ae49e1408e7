// Package wiki reads a folder of Markdown pages as Obsidian does: YAML
// frontmatter, [[wikilinks]] resolved by path or base name without regard
// to case, and the link graph they make (links, backlinks, orphans, broken
// links). Project long-term memory, the org vault and the knowledge graph
// all read their pages through it.
//
// Load a vault with [Load], resolve a link with [Vault.Resolve], and build
// the graph with [Vault.Graph]. Nothing here writes files.
package wiki

import (
	"strings"
)

// Link is one [[wikilink]] (or ![[embed]]) found in a page.
type Link struct {
	Target  string `json:"target"`            // as written, without alias and heading
	Heading string `json:"heading,omitempty"` // after '#', for [[page#heading]]
	Alias   string `json:"alias,omitempty"`   // after '|'
	Line    int    `json:"line"`              // 1-based line in the file
	Embed   bool   `json:"embed,omitempty"`
}

// ParseLinks finds the wikilinks in Markdown text whose first line is
// firstLine. Links inside fenced code blocks and inline code are not links.
func ParseLinks(text string, firstLine int) []Link {
	var out []Link
	inFence := false
	fence := ""
	for i, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(line, " \t")
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			mark := trimmed[:3]
			if !inFence {
				inFence, fence = true, mark
			} else if mark == fence {
				inFence = false
			}
			continue
		}
		if inFence || !strings.Contains(line, "[[") {
			continue
		}
		out = append(out, linksInLine(line, firstLine+i)...)
	}
	return out
}

func linksInLine(line string, n int) []Link {
	var out []Link
	inCode := false
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '`':
			inCode = !inCode
		case !inCode && strings.HasPrefix(line[i:], "[["):
			end := strings.Index(line[i+2:], "]]")
			if end < 0 {
				return out
			}
			inner := line[i+2 : i+2+end]
			if l, ok := parseInner(inner); ok {
				l.Line = n
				l.Embed = i > 0 && line[i-1] == '!'
				out = append(out, l)
			}
			i += end + 3
		}
	}
	return out
}

func parseInner(inner string) (Link, bool) {
	if strings.Contains(inner, "[[") || strings.Contains(inner, "\n") {
		return Link{}, false
	}
	var l Link
	target := inner
	// In tables the pipe is escaped as "\|".
	if i := strings.Index(target, "|"); i >= 0 {
		l.Alias = strings.TrimSpace(target[i+1:])
		target = strings.TrimSuffix(target[:i], `\`)
	}
	if i := strings.Index(target, "#"); i >= 0 {
		l.Heading = strings.TrimSpace(target[i+1:])
		target = target[:i]
	}
	l.Target = strings.TrimSpace(target)
	if l.Target == "" && l.Heading == "" {
		return Link{}, false
	}
	return l, true
}
