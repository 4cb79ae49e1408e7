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

// shorten cuts s to at most n runes at a word boundary, marking the cut.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	cut := n - 1
	for i := cut; i > n/2; i-- {
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
// **strong**, __strong__ and *em* (an _em_ is left alone: snake_case
// names look the same).
type emphasisMarks struct{}

var singleStar = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\*([^*\s](?:[^*]*[^*\s])?)\*`) })

func (emphasisMarks) Replace(s string) string {
	if !strings.ContainsAny(s, "*_") {
		return s
	}
	parts := strings.Split(s, "`")
	for i := 0; i < len(parts); i += 2 {
		p := strings.NewReplacer("**", "", "__", "").Replace(parts[i])
		parts[i] = singleStar().ReplaceAllString(p, "$1")
	}
	return strings.Join(parts, "`")
}

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
	s = oneLine(s)
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
