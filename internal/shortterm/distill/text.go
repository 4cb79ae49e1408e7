package distill

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

func itoa(n int) string { return strconv.Itoa(n) }

// oneLine collapses all whitespace, so a bullet stays one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ToValidUTF8(s, "\uFFFD")), " ")
}

// shorten cuts s to at most n runes at a word boundary, marking the cut:
// at the last space before n, however far back; in text without spaces
// (Chinese, a long token) at n.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	cut := n - 1
	for i := cut; i > 0; i-- {
		if unicode.IsSpace(r[i]) {
			cut = i
			break
		}
	}
	out := strings.TrimRightFunc(string(r[:cut]), func(c rune) bool {
		return unicode.IsSpace(c) || unicode.IsPunct(c) && c != ')' && c != '`'
	})
	if strings.Count(out, "`")%2 == 1 {
		out += "`" // cut inside a code span: close it, or it runs on
	}
	return out + "…"
}

var (
	codeFence  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(?s)```.*?(```|$)") })
	listMarker = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(?:[-*+•]|\d+[.)])\s+(?:\[[ xX]\]\s+)?`) })
	heading    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*#{1,6}\s+`) })
	emphasis   = emphasisMarks{}
	// A sentence ends at . ! ? or … followed by a space and not inside a
	// number or a file name ("v1.2", "main.go").
	sentenceEnd = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[.!?…]+["')\]]*\s+`) })
)

// emphasisMarks drops Markdown emphasis from text outside code spans:
// **strong**, __strong__ and *em*, each only where its marks stand at a
// word's edge (after a space or punctuation, before one), as Markdown
// reads them. Marks inside a word are the word's own:
// mcp__plugin_cerebro_memory__memory_search and a*b stay whole.
type emphasisMarks struct{}

// emphasisSpan matches one emphasised span with what stands on either
// side of it ("" at the text's edges); a dot or a slash after the closing
// marks ends the span only at the end of a sentence (__init__.py is a
// name).
var emphasisSpan = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|[^\p{L}\p{N}_*])(\*\*|__|\*)([^\s*_](?:[^*]*?[^\s*_])?)(\*\*|__|\*)($|[^\p{L}\p{N}_*./]|[./](?:\s|$))`)
})

func (emphasisMarks) Replace(s string) string {
	if !strings.ContainsAny(s, "*_") {
		return s
	}
	// Strong emphasis around a code span ("**Zero `# pragma` exclusions**")
	// spans the split below: its marks go first, over the whole text.
	if strings.Contains(s, "**") && strings.Contains(s, "`") {
		s = strongAround().ReplaceAllString(s, "$1$2$3")
	}
	parts := strings.Split(s, "`")
	for i := 0; i < len(parts); i += 2 {
		parts[i] = stripEmphasis(parts[i])
	}
	return strings.Join(parts, "`")
}

// strongAround matches **…** whose content holds a code span, its marks
// at word edges.
var strongAround = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("(^|[\\s(\\[])\\*\\*([^*\\s][^*]*`[^*]*[^*\\s])\\*\\*($|[\\s,.;:!?)\\]])")
})

// stripEmphasis drops the marks of each emphasised span whose opening
// and closing marks are the same.
func stripEmphasis(p string) string {
	for range 8 { // spans next to each other share the character between them
		changed := false
		p = emphasisSpan().ReplaceAllStringFunc(p, func(m string) string {
			g := emphasisSpan().FindStringSubmatch(m)
			if g[2] != g[4] {
				return m
			}
			changed = true
			return g[1] + g[3] + g[5]
		})
		if !changed {
			break
		}
	}
	return p
}

// codeSpanMarks puts in a code span each word outside one that holds
// Markdown's emphasis marks as part of it (mcp__plugin_x__y, __init__.py,
// a*b): shown as Markdown, the daily file keeps such names whole.
func codeSpanMarks(s string) string {
	if !strings.Contains(s, "__") && !strings.Contains(s, "*") {
		return s
	}
	parts := strings.Split(s, "`")
	if len(parts)%2 == 0 {
		return s // an open code span: leave the text as it is
	}
	for i := 0; i < len(parts); i += 2 {
		parts[i] = markedWord().ReplaceAllString(parts[i], "`$0`")
	}
	return strings.Join(parts, "`")
}

// markedWord is a word that holds "__", or a "*" between two letters or
// digits, without the punctuation around it.
var markedWord = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[\p{L}\p{N}_./:*-]*(?:__|[\p{L}\p{N}]\*+[\p{L}\p{N}])[\p{L}\p{N}_./:*-]*[\p{L}\p{N}_*/]`)
})

// sentences splits prose into sentences: code blocks are dropped, each
// line (list item, heading) stands alone, and lines split at sentence ends.
func sentences(text string) []string {
	text = codeFence().ReplaceAllString(text, "\n")
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if heading().MatchString(line) {
			continue // a title, not a statement
		}
		line = listMarker().ReplaceAllString(line, "")
		line = strings.TrimSpace(emphasis.Replace(line))
		if line == "" || strings.HasPrefix(line, "|") || strings.HasPrefix(line, ">") {
			continue // tables and quotes are material, not statements
		}
		start := 0
		for _, m := range sentenceEnd().FindAllStringIndex(line, -1) {
			if abbreviated(line[start:m[0]]) || strings.Count(line[:m[0]], "`")%2 == 1 {
				continue // an abbreviation, or inside code ("ALTER TABLE ... modify")
			}
			if s := strings.TrimSpace(line[start:m[1]]); s != "" {
				out = append(out, s)
			}
			start = m[1]
		}
		if s := strings.TrimSpace(line[start:]); s != "" {
			out = append(out, s)
		}
	}
	return out
}

var abbreviations = []string{"e.g", "i.e", "etc", "vs", "cf", "approx", "т.е", "т.д", "т.п", "др", "напр"}

// abbreviated reports whether text ends with an abbreviation whose dot does
// not end the sentence.
func abbreviated(text string) bool {
	lower := strings.ToLower(text)
	for _, a := range abbreviations {
		if strings.HasSuffix(lower, a) {
			before := strings.TrimSuffix(lower, a)
			if before == "" || !unicode.IsLetter([]rune(before)[utf8.RuneCountInString(before)-1]) {
				return true
			}
		}
	}
	return false
}

// isQuestion reports whether a sentence asks something.
func isQuestion(s string) bool {
	return strings.HasSuffix(strings.TrimRight(s, ` "')*_`), "?")
}

// codeSpan renders s as inline code that survives backticks inside it.
func codeSpan(s string) string {
	if !strings.Contains(s, "`") {
		return "`" + s + "`"
	}
	return "`` " + s + " ``"
}

// safeBullet keeps a bullet from breaking the daily file's structure: one
// line, no heading, no HTML comment that could pass for a segment marker.
func safeBullet(s string, n int) string {
	s = codeSpanMarks(oneLine(s))
	s = strings.ReplaceAll(s, "<!--", "< !--")
	s = strings.TrimLeft(s, "#")
	return shorten(strings.TrimSpace(s), n)
}

func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
