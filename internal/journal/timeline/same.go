package timeline

import (
	"strings"

	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// When two items are the same piece of work is decided by three rules,
// each on the item's structure, never on a list of phrases:
//
//   - the same check: both name the same test runner (a "tests:" item) or
//     the same command (the first backquoted span, by its program and
//     first argument: `go test ./...` is "go test"). A check is closed by
//     a later "tests:" item of that runner that passed, never by one that
//     failed.
//   - the same file: both name a file (one path is the other or ends with
//     it at a "/", see sameFile) and share a content word besides the path ("write
//     docs/api.md" and "wrote docs/api.md"; "fix the race in x.go" is not
//     closed by "edited x.go").
//   - the same todo: their content words (stems, stop words and paths
//     out) are nearly the same set (Jaccard ≥ 0.75), or every word of the
//     open item, at least two, is in the other ("add parser tests" is
//     closed by "todo done: add tests for the parser"); a commit closes
//     it when its subject holds two thirds of the item's words, at least
//     two ("Solve Q4 recursive CTE" by "Q4: recursive CTE solution").
//
// An open item is closed by a later section's Done item that is the same
// work (a check only by a passing run); raised again in a later Open it is
// one item, not two.
type ident struct {
	check string
	files []string
	words map[string]bool
}

const (
	sameJaccard  = 0.75
	minContained = 2
)

func identify(item string) ident {
	item = Unlabel(item)
	id := ident{words: map[string]bool{}}
	if t, ok := ParseTests(item); ok {
		id.check = strings.ToLower(t.Runner)
	} else if cmd := strings.Fields(firstCode(item)); len(cmd) > 0 && !strings.HasPrefix(cmd[0], "-") && asPath(cmd[0]) == "" {
		// A command by its program and, unless it is a flag or a path,
		// its first argument: `go test ./...` is "go test", `pytest -x`
		// "pytest".
		id.check = strings.ToLower(cmd[0])
		if len(cmd) > 1 && !strings.HasPrefix(cmd[1], "-") && asPath(cmd[1]) == "" {
			id.check += " " + strings.ToLower(cmd[1])
		}
	}
	var rest []string
	for _, tok := range strings.FieldsFunc(item, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '`' || r == '"' || r == '\'' || r == ',' || r == '(' || r == ')' || r == '[' || r == ']'
	}) {
		if p := asPath(tok); p != "" {
			id.files = append(id.files, p)
			continue
		}
		rest = append(rest, tok)
	}
	for _, w := range textan.Terms(strings.Join(rest, " ")) {
		id.words[w] = true
	}
	return id
}

// firstCode is the text of the first backquoted span.
func firstCode(s string) string {
	i := strings.IndexByte(s, '`')
	if i < 0 {
		return ""
	}
	j := strings.IndexByte(s[i+1:], '`')
	if j < 0 {
		return ""
	}
	return strings.TrimSpace(s[i+1 : i+1+j])
}

// asPath reads a token as a file path: it has a "/" or ends in a short
// extension after a name ("main.go", "docs/api.md"), and is no URL and no
// number ("1.5").
func asPath(tok string) string {
	tok = strings.TrimRight(tok, ".:;!?")
	if tok == "" || strings.Contains(tok, "://") {
		return ""
	}
	tok = strings.TrimPrefix(tok, "./")
	if strings.Contains(tok, "/") {
		if strings.Trim(tok, "/.") == "" {
			return ""
		}
		return strings.TrimSuffix(tok, "/")
	}
	dot := strings.LastIndexByte(tok, '.')
	if dot <= 0 || len(tok)-dot-1 < 1 || len(tok)-dot-1 > 5 {
		return ""
	}
	ext := tok[dot+1:]
	letter := false
	for _, r := range ext {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
			letter = true
		case r >= '0' && r <= '9':
		default:
			return ""
		}
	}
	if !letter {
		return ""
	}
	return tok
}

// sameFile: one path is the other, or ends with it at a "/" when the
// shorter has a folder of its own (an absolute path and the same path
// from the project root); a bare name matches only itself, since
// README.md and docs/README.md are two files.
func sameFile(a, b string) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	return a == b || strings.Contains(b, "/") && strings.HasSuffix(a, "/"+b)
}

func (a ident) sharesFile(b ident) bool {
	for _, x := range a.files {
		for _, y := range b.files {
			if sameFile(x, y) {
				return true
			}
		}
	}
	return false
}

func (a ident) sharedWords(b ident) int {
	n := 0
	for w := range a.words {
		if b.words[w] {
			n++
		}
	}
	return n
}

func (a ident) sameWords(b ident) bool {
	shared := a.sharedWords(b)
	union := len(a.words) + len(b.words) - shared
	return union > 0 && shared >= minContained && float64(shared) >= sameJaccard*float64(union)
}

// contained: every word of a, at least minContained, is in b.
func (a ident) contained(b ident) bool {
	return len(a.words) >= minContained && a.sharedWords(b) == len(a.words)
}

// same reports whether a and b are one piece of work (see the rules
// above); for a raised-again item the words may be contained either way.
func (a ident) same(b ident) bool {
	switch {
	case a.check != "" && a.check == b.check:
		return true
	case a.sharesFile(b) && a.sharedWords(b) > 0:
		return true
	}
	return a.sameWords(b) || a.contained(b) || b.contained(a)
}

// closedBy reports whether the Done item done closes the open item a.
func (a ident) closedBy(done string, d ident) bool {
	if a.check != "" && a.check == d.check {
		if t, ok := ParseTests(done); ok {
			return t.Green()
		}
	}
	if a.sharesFile(d) && a.sharedWords(d) > 0 {
		return true
	}
	if _, ok := ParseCommit(done); ok && a.check == "" && a.named(d) {
		return true
	}
	return a.sameWords(d) || a.contained(d)
}

// named: a commit names the open work a when its subject holds two
// thirds of a's content words, at least two ("Solve Q4 recursive CTE"
// is named by "Q4: recursive CTE solution").
func (a ident) named(commit ident) bool {
	shared := a.sharedWords(commit)
	return shared >= minContained && 3*shared >= 2*len(a.words)
}

// Closes reports whether done (a Done item, a commit's line) closes the
// open item open by these rules: the same check passed, the same file
// with a content word in common, or the same todo.
func Closes(open, done string) bool {
	return identify(open).closedBy(done, identify(done))
}
