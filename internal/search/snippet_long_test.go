package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/text/excerpt"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// words repeats a few plain words until the text is n runes or more.
func words(n int, ws ...string) string {
	var b strings.Builder
	for i := 0; utf8.RuneCountInString(b.String()) < n; i++ {
		b.WriteString(ws[(i*5+i/4)%len(ws)] + " ")
	}
	return b.String()
}

// TestSnippetOfALongLineShowsTheMatch: a match 2,700 characters into a
// line is what the snippet shows, cut at word boundaries with an ellipsis
// on each cut side, cited by exactly that line — in English and in Russian
// with the query in another case.
func TestSnippetOfALongLineShowsTheMatch(t *testing.T) {
	for _, tc := range []struct {
		name, match, query, want string
		fill                     []string
	}{
		{"en", "Then the deploy keys were rotated by Marta on Tuesday.", "rotation of the deploy keys", "deploy keys were rotated",
			[]string{"garden", "wall", "painted", "green", "summer", "nobody", "noticed", "autumn", "leaves", "covered"}},
		{"ru", "Настройки синхронизации заметок между устройствами хранятся в облаке.", "синхронизациями между устройствами", "синхронизации заметок между устройствами",
			[]string{"саду", "стояла", "старая", "скамейка", "которую", "никто", "красил", "много", "подряд", "скрипела"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			long := words(2700, tc.fill...) + tc.match + " " + words(1500, tc.fill...)
			page := "# Page\n\nA short first line.\n" + long + "\nA short last line.\n"
			write(t, filepath.Join(dir, "page.md"), page)
			ix := indexed(t, t.TempDir(), Root{Dir: dir, Kind: KindDir}, Params{})
			r, err := Search(context.Background(), []*Index{ix}, tc.query, defaults())
			if err != nil || len(r.Results) == 0 {
				t.Fatalf("no results (%v)", err)
			}
			res := r.Results[0]
			if !strings.Contains(res.Snippet, tc.want) {
				t.Fatalf("the snippet misses the match:\n%s", res.Snippet)
			}
			if n := utf8.RuneCountInString(res.Snippet); n > SnippetChars {
				t.Fatalf("snippet of %d characters", n)
			}
			if !strings.HasPrefix(res.Snippet, excerpt.Ellipsis) || !strings.HasSuffix(res.Snippet, excerpt.Ellipsis) {
				t.Errorf("a window inside the line wants an ellipsis on both sides: %q", res.Snippet)
			}
			if res.StartLine != 4 || res.EndLine != 4 || res.Citation != fmt.Sprintf("%s#L4-L4", res.Path) {
				t.Fatalf("cites %s (lines %d-%d), the snippet shows line 4 only", res.Citation, res.StartLine, res.EndLine)
			}
			body := strings.TrimSuffix(strings.TrimPrefix(res.Snippet, excerpt.Ellipsis), excerpt.Ellipsis)
			i := strings.Index(long, body)
			if i < 0 {
				t.Fatalf("the snippet is not a piece of the cited line")
			}
			// word boundaries on both sides
			if l := []rune(long[:i]); len(l) > 0 && l[len(l)-1] != ' ' {
				t.Errorf("cut mid-word at the start: %q", res.Snippet[:40])
			}
			if rest := long[i+len(body):]; rest != "" && rest[0] != ' ' {
				t.Errorf("cut mid-word at the end")
			}
		})
	}
}

// TestAutoRecallShowsTheMatchOfALongNote: auto-recall's short item is cut
// around the prompt's words, not from the start of the snippet, and cites
// the lines it shows.
func TestAutoRecallShowsTheMatchOfALongNote(t *testing.T) {
	proj, state := t.TempDir(), t.TempDir()
	roots := Roots(proj, "", "", ScopeProject)
	fill := []string{"garden", "wall", "painted", "green", "summer", "nobody", "noticed", "autumn", "leaves", "covered"}
	lines := []string{"# Infra", ""}
	for i := 0; i < 4; i++ {
		lines = append(lines, "- "+words(150, fill...))
	}
	lines = append(lines, "- "+words(900, fill...)+"Kafka retention is seven days on the events topic. "+words(600, fill...), "- "+words(150, fill...))
	write(t, filepath.Join(proj, ".claude", "memory_long", "infra.md"), strings.Join(lines, "\n")+"\n")
	ix := indexed(t, state, roots[1], Params{})
	ix.Close()
	o := defaults()
	o.Limit = 1
	got, err := AutoRecall(context.Background(), state, roots, "remind me the kafka retention", o, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	item, _, _ := strings.Cut(strings.SplitN(got, "\n", 2)[1], "\n")
	if !strings.Contains(item, "Kafka retention is seven days") || !strings.Contains(item, "infra.md#L7-L7 ") {
		t.Fatalf("the item misses the match or cites other lines than the one it shows:\n%s", got)
	}
	_, text, _ := strings.Cut(item, "prompt): ")
	if n := utf8.RuneCountInString(text); n > recallSnippetChars || !strings.HasPrefix(text, excerpt.Ellipsis) {
		t.Fatalf("item of %d characters, want at most %d cut before the match: %q", n, recallSnippetChars, text)
	}
}

// TestVaultSnippetsShowTheirCitedLines: on the Russian help vault with
// each paragraph joined into one line (the help vault has no line longer
// than a snippet; real notes often do), with each note's title as the
// query and three words from far into each line longer than a snippet,
// every snippet of the top 5 is its cited lines — whole, or a piece of
// them cut at word boundaries where an ellipsis says so — and holds a
// query word whenever those lines do.
func TestVaultSnippetsShowTheirCitedLines(t *testing.T) {
	src, dir := vaultDir(t, "ru"), t.TempDir()
	var names []string
	long := 0
	filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		names = append(names, strings.TrimSuffix(d.Name(), ".md"))
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		paras := strings.Split(string(data), "\n\n")
		for i, para := range paras {
			if !strings.HasPrefix(para, "---") { // front matter stays as it is
				paras[i] = strings.ReplaceAll(para, "\n", " ")
			}
			if rs := []rune(paras[i]); len(rs) > SnippetChars {
				long++
				if ws := strings.Fields(string(rs[len(rs)*3/4:])); len(ws) > 4 {
					names = append(names, strings.Join(ws[1:4], " "))
				}
			}
		}
		rel, _ := filepath.Rel(src, p)
		write(t, filepath.Join(dir, rel), strings.Join(paras, "\n\n"))
		return nil
	})
	ix := indexed(t, t.TempDir(), Root{Dir: dir, Kind: KindOrg}, Params{})
	var snippets, windows int
	for _, q := range names {
		r, err := Search(context.Background(), []*Index{ix}, q, defaults())
		if err != nil {
			t.Fatal(err)
		}
		stems := map[string]bool{}
		for _, s := range textan.QueryTerms(q) {
			stems[s] = true
		}
		holds := func(text string) bool {
			for _, s := range textan.Stems(text) {
				if stems[s] {
					return true
				}
			}
			return false
		}
		for _, res := range r.Results[:min(5, len(r.Results))] {
			snippets++
			cited, err := ReadLines(filepath.FromSlash(res.Path), res.StartLine, res.EndLine-res.StartLine+1, 0)
			if err != nil {
				t.Fatal(err)
			}
			cited = strings.TrimSuffix(cited, "\n")
			if utf8.RuneCountInString(res.Snippet) > SnippetChars {
				t.Fatalf("%s: snippet of %d characters", res.Citation, utf8.RuneCountInString(res.Snippet))
			}
			if res.Snippet != cited {
				windows++
				body := strings.TrimSuffix(strings.TrimPrefix(res.Snippet, excerpt.Ellipsis), excerpt.Ellipsis)
				i := strings.Index(cited, body)
				if i < 0 {
					t.Fatalf("%s: the snippet is not a piece of its cited lines:\n%s", res.Citation, res.Snippet)
				}
				before, _ := utf8.DecodeLastRuneInString(cited[:i])
				after, _ := utf8.DecodeRuneInString(cited[i+len(body):])
				first, _ := utf8.DecodeRuneInString(body)
				last, _ := utf8.DecodeLastRuneInString(body)
				if i > 0 && wordRune(before) && wordRune(first) || i+len(body) < len(cited) && wordRune(after) && wordRune(last) {
					t.Errorf("%s: cut mid-word: %q", res.Citation, res.Snippet)
				}
			}
			if holds(cited) && !holds(res.Snippet) {
				t.Errorf("%s: the cited lines hold a word of %q, the snippet none:\n%s", res.Citation, q, res.Snippet)
			}
		}
	}
	t.Logf("%d queries (%d lines longer than a snippet), %d snippets, %d of them a window of longer lines", len(names), long, snippets, windows)
	if windows == 0 {
		t.Errorf("no snippet was cut from a long line: the test checks nothing it was written for")
	}
}

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// TestSnippetCharsSetsTheCap: Options.SnippetChars widens or narrows what a
// result shows, around the same match, within the cap asked for.
func TestSnippetCharsSetsTheCap(t *testing.T) {
	dir := t.TempDir()
	fill := []string{"garden", "wall", "painted", "green", "summer", "nobody", "noticed", "autumn", "leaves", "covered"}
	long := words(2700, fill...) + "Then the deploy keys were rotated by Marta on Tuesday. " + words(2700, fill...)
	write(t, filepath.Join(dir, "page.md"), "# Page\n\n"+long+"\n")
	ix := indexed(t, t.TempDir(), Root{Dir: dir, Kind: KindDir}, Params{})
	sizes := map[int]int{}
	for _, limit := range []int{300, 0, 2000} {
		o := defaults()
		o.SnippetChars = limit
		r, err := Search(context.Background(), []*Index{ix}, "rotation of the deploy keys", o)
		if err != nil || len(r.Results) == 0 {
			t.Fatalf("cap %d: no results (%v)", limit, err)
		}
		sn := r.Results[0].Snippet
		want := limit
		if want == 0 {
			want = SnippetChars
		}
		n := utf8.RuneCountInString(sn)
		if n > want || n < want*3/4 || !strings.Contains(sn, "deploy keys were rotated") {
			t.Fatalf("cap %d: a snippet of %d characters, or without the match: %q", limit, n, sn)
		}
		sizes[want] = n
	}
	if !(sizes[300] < sizes[SnippetChars] && sizes[SnippetChars] < sizes[2000]) {
		t.Fatalf("snippet sizes do not follow the cap: %v", sizes)
	}
}
