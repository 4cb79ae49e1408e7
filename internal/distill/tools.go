package distill

import (
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/transcript"
)

// Tool kinds, by the names Claude Code gives its tools.
const (
	kindEdit    = "edit"
	kindWrite   = "write"
	kindRead    = "read"
	kindRun     = "run"
	kindSearch  = "search"
	kindWeb     = "web"
	kindAgent   = "agent"
	kindUnknown = ""
)

func toolKind(name string) string {
	switch name {
	case "Edit", "MultiEdit", "NotebookEdit":
		return kindEdit
	case "Write":
		return kindWrite
	case "Read", "NotebookRead":
		return kindRead
	case "Bash", "PowerShell":
		return kindRun
	case "Grep", "Glob", "LS":
		return kindSearch
	case "WebFetch", "WebSearch":
		return kindWeb
	case "Task", "Agent":
		return kindAgent
	}
	return kindUnknown
}

// orderedSet keeps first-seen order, for deterministic output.
type orderedSet struct {
	list []string
	seen map[string]bool
}

func (s *orderedSet) add(v string) {
	if v == "" {
		return
	}
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	if !s.seen[v] {
		s.seen[v] = true
		s.list = append(s.list, v)
	}
}

type toolUse struct {
	edited, written, read, commands orderedSet
	runs, searches, web, agents     int
}

func collectTools(items []transcript.Item, dir string) toolUse {
	var u toolUse
	for _, it := range items {
		for _, t := range it.Tools {
			switch toolKind(t.Name) {
			case kindEdit:
				u.edited.add(relPath(t.Target, dir))
			case kindWrite:
				u.written.add(relPath(t.Target, dir))
			case kindRead:
				u.read.add(relPath(t.Target, dir))
			case kindRun:
				u.runs++
				u.commands.add(command(t.Target))
			case kindSearch:
				u.searches++
			case kindWeb:
				u.web++
			case kindAgent:
				u.agents++
			}
		}
	}
	return u
}

// relPath shows a path under the project root relative to it.
func relPath(p, dir string) string {
	if p == "" || dir == "" || !filepath.IsAbs(p) {
		return p
	}
	if rel, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return p
}

// command is the first line of a command, shortened: a heredoc's body is
// not what one remembers a command by.
func command(c string) string {
	line, _, more := strings.Cut(strings.TrimSpace(c), "\n")
	line = oneLine(line)
	if more {
		line += " …"
	}
	return shorten(line, cmdRunes)
}

func filesAndCommands(items []transcript.Item, dir string) []string {
	u := collectTools(items, dir)
	changed := orderedSet{}
	for _, p := range u.edited.list {
		changed.add(p)
	}
	for _, p := range u.written.list {
		changed.add(p)
	}
	var readOnly []string
	for _, p := range u.read.list {
		if !changed.seen[p] {
			readOnly = append(readOnly, p)
		}
	}
	var out []string
	if b := codeList("changed", changed.list, maxEdited); b != "" {
		out = append(out, b)
	}
	if b := codeList("read", readOnly, maxRead); b != "" {
		out = append(out, b)
	}
	if b := codeList("ran", u.commands.list, maxCommands); b != "" {
		out = append(out, b)
	}
	return out
}

func codeList(label string, values []string, limit int) string {
	if len(values) == 0 {
		return ""
	}
	shown := values
	if len(shown) > limit {
		shown = shown[:limit]
	}
	spans := make([]string, len(shown))
	for i, v := range shown {
		spans[i] = codeSpan(strings.ReplaceAll(oneLine(v), "<!--", "< !--"))
	}
	s := label + ": " + strings.Join(spans, ", ")
	if n := len(values) - len(shown); n > 0 {
		s += " (+" + itoa(n) + " more)"
	}
	return s
}

// toolSummary counts the tool calls by kind: "edited 3 files, ran 5 commands".
func toolSummary(items []transcript.Item) string {
	u := collectTools(items, "")
	var parts []string
	count := func(n int, one, many string) {
		switch {
		case n == 1:
			parts = append(parts, one)
		case n > 1:
			parts = append(parts, strings.Replace(many, "N", itoa(n), 1))
		}
	}
	count(len(u.edited.list), "edited 1 file", "edited N files")
	count(len(u.written.list), "wrote 1 file", "wrote N files")
	count(u.runs, "ran 1 command", "ran N commands")
	count(len(u.read.list), "read 1 file", "read N files")
	count(u.searches, "searched the code once", "searched the code N times")
	count(u.web, "made 1 web lookup", "made N web lookups")
	count(u.agents, "ran 1 subagent", "ran N subagents")
	if len(parts) == 0 {
		return ""
	}
	return "tools: " + strings.Join(parts, ", ")
}
