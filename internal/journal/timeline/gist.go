package timeline

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Gist is s within n runes, as [Clip] makes it when it fits; when it does
// not, the sentences that name the most things per character (numbers,
// names, code, paths), in their order, joined by " … ". A long reply's
// head is often only its preamble ("Done. The tool is built, tested…");
// what the next session needs is the sentence that says which table,
// which date, which file. It falls back to Clip when no sentence names
// anything or none fits whole.
func Gist(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	type cand struct {
		at, size int
		text     string
		density  float64
	}
	var cs []cand
	// The first sentence says what the reply is about: kept, in at most
	// half the room; the rest is weighed clause by clause.
	first := sentences(s, false)
	if len(first) < 2 {
		return Clip(s, n)
	}
	head := Clip(first[0], n/2)
	parts := append([]string{first[0]}, sentences(strings.Join(first[1:], " "), true)...)
	for i, t := range parts[1:] {
		size := utf8.RuneCountInString(t)
		if k := named(t); k > 0 {
			cs = append(cs, cand{at: i + 1, size: size, text: t, density: float64(k) / float64(size+20)})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].density > cs[j].density })
	const sep = " … "
	kept := []cand{{at: 0, size: utf8.RuneCountInString(head), text: head}}
	used := kept[0].size
	for _, c := range cs {
		need := c.size
		if len(kept) > 0 {
			need += utf8.RuneCountInString(sep)
		}
		if used+need > n-1 { // room for the closing "…"
			continue
		}
		kept, used = append(kept, c), used+need
	}
	if len(kept) == 1 {
		return Clip(s, n)
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].at < kept[j].at })
	out := make([]string, len(kept))
	for i, c := range kept {
		out[i] = strings.TrimSuffix(c.text, "…")
	}
	return strings.Join(out, sep) + " …"
}

// sentences splits prose at a sentence's end: ".", "!" or "?" followed by
// a space and a capital, a digit or a quote; with clauses, also after
// ";", ":" and a spaced dash.
func sentences(s string, clauses bool) []string {
	var out []string
	start := 0
	rs := []rune(s)
	for i := 0; i+2 < len(rs); i++ {
		if clauses && ((rs[i] == ';' || rs[i] == ':') && rs[i+1] == ' ' || rs[i] == '—' && rs[i+1] == ' ' && i > 0 && rs[i-1] == ' ') {
			out = append(out, strings.TrimSpace(string(rs[start:i+1])))
			start = i + 2
			continue
		}
		if (rs[i] == '.' || rs[i] == '!' || rs[i] == '?') && rs[i+1] == ' ' {
			next := rs[i+2]
			if unicode.IsUpper(next) || unicode.IsDigit(next) || next == '`' || next == '"' || next == '“' {
				out = append(out, strings.TrimSpace(string(rs[start:i+1])))
				start = i + 2
			}
		}
	}
	if t := strings.TrimSpace(string(rs[start:])); t != "" {
		out = append(out, t)
	}
	return out
}

// named counts the words of a sentence that name something: a number, a
// capitalised word past the first, code or a path.
func named(t string) int {
	k := 0
	for i, w := range strings.Fields(t) {
		w = strings.Trim(w, ",;:()\"'“”")
		switch {
		case w == "":
		case strings.ContainsAny(w, "0123456789"):
			k++
		case strings.ContainsAny(w, "`/_") || (strings.Contains(strings.TrimRight(w, ".!?"), ".") && len(w) > 3):
			k++
		case i > 0 && unicode.IsUpper([]rune(w)[0]) && len(w) > 1:
			k++
		}
	}
	return k
}
