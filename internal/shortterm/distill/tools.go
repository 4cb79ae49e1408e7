package distill

import (
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
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
	edited, written, read       orderedSet
	commands, looked            folded // looked: the read-only commands
	runs, searches, web, agents int
}

// folded groups command variants under one key ("uv run pytest …" run
// twelve times with different arguments is one entry, ×12), keeping the
// first spelling seen — or, when the variants differ in one word only,
// that word's values: "bd close X.4, X.5, X.6".
type folded struct {
	keys     []string
	first    map[string]string
	n        map[string]int
	variants map[string][]string // distinct spellings, bounded
}

// maxVariants bounds the spellings kept of one command.
const maxVariants = 12

func (f *folded) add(cmd string) { f.addKey(commandKey(cmd), cmd) }

// lookKey folds a read-only command by its program; memhook's own calls
// are housekeeping and never listed.
func lookKey(cmd string) string {
	ws := strings.Fields(cmd)
	if len(ws) == 0 || filepath.Base(ws[0]) == "memhook" {
		return ""
	}
	return cmd
}

func (f *folded) addKey(key, cmd string) {
	if key == "" {
		return
	}
	if f.first == nil {
		f.first, f.n, f.variants = map[string]string{}, map[string]int{}, map[string][]string{}
	}
	spelled := command(cmd)
	if _, ok := f.first[key]; !ok {
		f.keys = append(f.keys, key)
		f.first[key] = spelled
	}
	f.n[key]++
	vs := f.variants[key]
	for _, v := range vs {
		if v == spelled {
			return
		}
	}
	switch {
	case len(vs) < maxVariants:
		f.variants[key] = append(vs, spelled)
	case len(vs) == maxVariants:
		f.variants[key] = append(vs, "") // more than can be listed: never joined
	}
}

func (f *folded) list() []string {
	out := make([]string, 0, len(f.keys))
	for _, k := range f.keys {
		s := f.first[k]
		distinct := len(f.variants[k])
		if joined, ok := oneWordApart(f.variants[k]); ok {
			s = joined
			if f.n[k] > distinct {
				s += " ×" + itoa(f.n[k])
			}
		} else if f.n[k] > 1 {
			s += " ×" + itoa(f.n[k])
		}
		out = append(out, s)
	}
	return out
}

// oneWordApart joins spellings that differ in one word only: the first
// with that word replaced by every value ("bd close X.4, X.5, X.6").
func oneWordApart(vs []string) (string, bool) {
	if len(vs) < 2 || len(vs) > maxVariants {
		return "", false
	}
	first := strings.Fields(vs[0])
	at := -1
	values := []string{}
	for _, v := range vs[1:] {
		ws := strings.Fields(v)
		if len(ws) != len(first) {
			return "", false
		}
		for i := range ws {
			if ws[i] != first[i] {
				if at >= 0 && at != i {
					return "", false
				}
				at = i
			}
		}
	}
	if at < 0 {
		return "", false
	}
	for _, v := range vs {
		w := strings.Fields(v)[at]
		if strings.ContainsAny(w, `"'`+"`…") {
			return "", false // a word of a quoted string or a cut line, not an argument
		}
		values = append(values, w)
	}
	out := append(append(append([]string{}, first[:at]...), strings.Join(values, ", ")), first[at+1:]...)
	return strings.Join(out, " "), true
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
				if commandKey(t.Target) != "" {
					u.commands.add(t.Target)
				} else {
					u.looked.addKey(lookKey(t.Target), t.Target)
				}
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

// readOnly are programs that only look: listing them tells nothing the
// files list does not.
var readOnly = wordSet("ls", "cat", "head", "tail", "grep", "rg", "find", "pwd", "echo", "which", "wc",
	"tree", "less", "more", "file", "stat", "du", "df", "env", "printenv", "type", "whoami", "date",
	"true", "sleep", "diff", "fd", "jq", "sort", "uniq")

var gitReadOnly = wordSet("status", "log", "diff", "show", "branch", "remote", "rev-parse", "ls-files",
	"blame", "describe", "reflog", "shortlog", "config")

// commandKey is what variants of a command share: the program and its
// subcommand, after any "cd dir &&" and VAR=value prefix. "" for a
// read-only command and for memhook's own calls (housekeeping).
func commandKey(cmd string) string {
	line := mainLine(cmd)
	ws := strings.Fields(line)
	for len(ws) > 0 {
		switch {
		case ws[0] == "cd" && len(ws) > 2 && (ws[2] == "&&" || ws[2] == ";"):
			ws = ws[3:]
		case strings.Contains(ws[0], "=") && !strings.HasPrefix(ws[0], "-"):
			ws = ws[1:]
		case ws[0] == "sudo" || ws[0] == "time" || ws[0] == "timeout" && len(ws) > 1:
			ws = ws[1:]
			if len(ws) > 0 && ws[0] != "" && ws[0][0] >= '0' && ws[0][0] <= '9' {
				ws = ws[1:]
			}
		default:
			goto done
		}
	}
done:
	if len(ws) == 0 {
		return ""
	}
	prog := filepath.Base(ws[0])
	if prog == "memhook" {
		return ""
	}
	if readOnly[prog] && !redirects(line) {
		return ""
	}
	if prog == "sed" && len(ws) > 1 && ws[1] == "-n" {
		return ""
	}
	sub := ""
	for _, w := range ws[1:] {
		if strings.HasPrefix(w, "-") {
			if prog == "git" && (w == "-C" || w == "-c") {
				continue
			}
			continue
		}
		sub = w
		break
	}
	if prog == "git" && gitReadOnly[sub] {
		return ""
	}
	switch prog {
	case "uv", "npx", "poetry", "pnpm", "npm", "yarn", "bun", "cargo", "go", "mix", "make", "docker", "kubectl", "python", "python3":
		// The runner and what it runs: "uv run pytest", "go test".
		rest := ws[1:]
		key := prog
		for i := 0; i < len(rest) && i < 2; i++ {
			if strings.HasPrefix(rest[i], "-") {
				break
			}
			key += " " + rest[i]
		}
		return key
	}
	return prog + " " + sub
}

// mainLine is the line of a command that does the work: a script of
// several lines often starts by changing directory or setting the shell
// up ("cd /p", "set -e", a comment), and the work is on the next line.
func mainLine(cmd string) string {
	lines := strings.Split(strings.TrimSpace(cmd), "\n")
	for _, l := range lines {
		t := strings.TrimSpace(l)
		ws := strings.Fields(t)
		switch {
		case t == "" || strings.HasPrefix(t, "#"):
			continue
		case ws[0] == "cd" && len(ws) <= 2, ws[0] == "set" || ws[0] == "export" || ws[0] == "source" || ws[0] == ".":
			continue
		}
		return t
	}
	if len(lines) > 0 {
		return strings.TrimSpace(lines[0])
	}
	return ""
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
	line := mainLine(c)
	more := strings.Contains(strings.TrimSpace(c), "\n")
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
	ran := u.commands.list()
	if len(ran) == 0 {
		// Only read-only commands ran: then they are what was run.
		ran = u.looked.list()
	}
	if b := codeList("ran", ran, maxCommands); b != "" {
		out = append(out, b)
	}
	return out
}

func codeList(label string, values []string, limit int) string {
	if len(values) == 0 {
		return ""
	}
	// Cut from the middle: the first and the newest stay.
	spans := make([]string, 0, limit+1)
	span := func(v string) string {
		times := ""
		if i := strings.LastIndex(v, " ×"); i > 0 {
			v, times = v[:i], v[i:]
		}
		return codeSpan(strings.ReplaceAll(oneLine(v), "<!--", "< !--")) + times
	}
	if len(values) <= limit {
		for _, v := range values {
			spans = append(spans, span(v))
		}
	} else {
		spans = append(spans, span(values[0]), "… "+itoa(len(values)-limit)+" more")
		for _, v := range values[len(values)-limit+1:] {
			spans = append(spans, span(v))
		}
	}
	return label + ": " + strings.Join(spans, ", ")
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

// redirects reports whether a command line writes its output to a file
// ("cat <<EOF > x" writes; "grep x 2>/dev/null" does not).
func redirects(line string) bool {
	for _, f := range strings.Fields(line) {
		if (f == ">" || f == ">>" || strings.HasPrefix(f, ">") && !strings.HasPrefix(f, ">&")) && !strings.Contains(f, "/dev/null") {
			return true
		}
	}
	return false
}
