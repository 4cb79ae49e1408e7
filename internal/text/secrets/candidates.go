package secrets

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Go's regexp scans slowly where a pattern cannot start with a literal, so
// the personal-data detectors first find cheap candidate positions (an
// '@', a '+', a digit after a non-word character, a keyword) and run a
// pattern anchored with ^ on the rest of that line only.

// foldLower lower-cases ASCII and Russian letters and nothing else, so
// that byte offsets in the result are offsets in s.
func foldLower(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b[i] = c + 32
		case c == 0xD0 && i+1 < len(b):
			d := b[i+1]
			switch {
			case d >= 0x90 && d <= 0x9F: // А..П
				b[i+1] = d + 0x20
			case d >= 0xA0 && d <= 0xAF: // Р..Я
				b[i], b[i+1] = 0xD1, d-0x20
			case d == 0x81: // Ё
				b[i], b[i+1] = 0xD1, 0x91
			}
			i++
		}
	}
	return string(b)
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// anchored runs re (which starts with ^) on text from each start to the end
// of its line, at most width bytes, and returns the submatch indices
// shifted into text.
func anchored(text string, starts []int, width int, re *regexp.Regexp) [][]int {
	var out [][]int
	last := -1
	for _, s := range starts {
		if s < last {
			continue // inside the previous match
		}
		end := min(len(text), s+width)
		if nl := strings.IndexByte(text[s:end], '\n'); nl >= 0 {
			end = s + nl
		}
		m := re.FindStringSubmatchIndex(text[s:end])
		if m == nil {
			continue
		}
		for i := range m {
			if m[i] >= 0 {
				m[i] += s
			}
		}
		out = append(out, m)
		last = m[1]
	}
	return out
}

// positions lists the offsets where ok holds.
func positions(text string, ok func(i int) bool) []int {
	var out []int
	for i := 0; i < len(text); i++ {
		if ok(i) {
			out = append(out, i)
		}
	}
	return out
}

// keywordStarts finds each keyword in the folded text that does not follow
// a letter or a digit.
func keywordStarts(lower string, words ...string) []int {
	var out []int
	for _, w := range words {
		for from := 0; ; {
			i := strings.Index(lower[from:], w)
			if i < 0 {
				break
			}
			i += from
			if r, _ := utf8.DecodeLastRuneInString(lower[:i]); i == 0 || !(unicode.IsLetter(r) || unicode.IsDigit(r)) {
				out = append(out, i)
			}
			from = i + len(w)
		}
	}
	sortInts(out)
	return out
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// linesWith calls fn with each line holding every one of needles, and its
// offset in text.
func linesWith(text string, fn func(line string, offset int), needles ...string) {
	offset := 0
	for _, line := range strings.SplitAfter(text, "\n") {
		all := true
		for _, n := range needles {
			if !strings.Contains(line, n) {
				all = false
				break
			}
		}
		if all {
			fn(line, offset)
		}
		offset += len(line)
	}
}
