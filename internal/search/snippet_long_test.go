package search

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/excerpt"
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
