package search

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// chunkOf stems text line by line as the index stores it.
func chunkOf(lines ...string) (string, string) {
	text := strings.Join(lines, "\n")
	stems, _ := stemLines(text)
	return text, stems
}

func filler(n int) []string {
	var out []string
	for i := 0; i < n; i++ {
		out = append(out, fmt.Sprintf("- note %d: %s", i, strings.Repeat("plain words about nothing much ", 4)))
	}
	return out
}

func TestSnippetPicksTheRareWord(t *testing.T) {
	// "deploy" is common (low weight), "kubeconfig" rare: the snippet must
	// hold the line with the rare word even though two lines elsewhere
	// repeat the common one.
	lines := filler(20)
	lines[2] = "- deploy went fine, deploy again tomorrow"
	lines[3] = "- another deploy note"
	lines[15] = "- the kubeconfig for the deploy lives in ops/"
	text, stems := chunkOf(lines...)
	w := map[string]float64{"deploy": 0.2, "kubeconfig": 3}
	// a snippet the lines after the match fill (a shorter one than the
	// default, whose room the four lines after it leave to the lines
	// before)
	sn := pickSnippets(chunkText{text: text, stems: stems}, w, 1, 700)
	if len(sn) != 1 || !strings.Contains(sn[0].text, "kubeconfig") {
		t.Fatalf("snippet %+v lacks the rare word", sn)
	}
	if !strings.HasPrefix(sn[0].text, lines[15]) {
		t.Fatalf("snippet should start on its matching line and take the lines after it:\n%s", sn[0].text)
	}
}

func TestSnippetSaturatesRepeats(t *testing.T) {
	// Repeating one word many times must not beat a line holding two
	// different query words of the same weight.
	lines := filler(20)
	lines[1] = "- cache cache cache cache cache cache"
	lines[14] = "- the cache eviction bug"
	text, stems := chunkOf(lines...)
	sn := pickSnippets(chunkText{text: text, stems: stems}, map[string]float64{"cach": 1, "evict": 1}, 1, SnippetChars)
	if len(sn) != 1 || !strings.Contains(sn[0].text, "eviction") {
		t.Fatalf("snippet %q went to the repeated word", sn[0].text)
	}
}

func TestSnippetSecondPassageFromAnotherRegion(t *testing.T) {
	lines := filler(20)
	lines[1] = "- postgres migration planned"
	lines[16] = "- postgres migration done"
	text, stems := chunkOf(lines...)
	sn := pickSnippets(chunkText{text: text, stems: stems}, map[string]float64{"postgr": 2, "migrat": 2}, 2, SnippetChars)
	if len(sn) != 2 {
		t.Fatalf("%d passages, want 2", len(sn))
	}
	a, b := sn[0], sn[1]
	if a.off < b.off+b.n && b.off < a.off+a.n {
		t.Fatalf("passages overlap: %d+%d and %d+%d", a.off, a.n, b.off, b.n)
	}
	if !strings.Contains(a.text+b.text, "planned") || !strings.Contains(a.text+b.text, "done") {
		t.Fatalf("passages miss a region:\n%s\n--\n%s", a.text, b.text)
	}
	for _, s := range sn {
		if s.score <= 0 || s.score >= 1 {
			t.Fatalf("passage score %v outside (0,1)", s.score)
		}
	}
}

func TestSearchRanksThePassageNotJustTheChunk(t *testing.T) {
	// a.md mentions both words, but farther apart than a snippet holds;
	// b.md is longer (by chunk BM25 alone a.md wins) yet has them on one
	// line: b's snippet answers the query, so b ranks first.
	dir := t.TempDir()
	a := append([]string{"- the invoice total"}, filler(6)...)
	a = append(a, "- rounding in reports")
	b := append(filler(9), "- invoice rounding is off by one cent", "")
	write(t, filepath.Join(dir, "a.md"), strings.Join(a, "\n"))
	write(t, filepath.Join(dir, "b.md"), strings.Join(b, "\n"))
	ix := indexed(t, t.TempDir(), Root{Dir: dir, Kind: KindLong}, Params{})
	o := defaults()
	o.MMR = false
	resp, err := Search(context.Background(), []*Index{ix}, "invoice rounding", o)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Results) == 0 || !strings.HasSuffix(resp.Results[0].Path, "b.md") {
		t.Fatalf("results %v, want b.md first", paths(resp))
	}
}

func TestSnippetKeepsWhatFollowsTheMatch(t *testing.T) {
	// Lines 0 and 1 together hold both query words, but with line 0 the
	// answer on line 2 no longer fits: the snippet starts at the question
	// and shows the answer rather than taking the longer core.
	lines := append([]string{
		"- the travel plan: " + strings.Repeat("long words about logistics ", 12),
		"- so what is the budget now?",
		"- finance moved the deadline to Friday: " + strings.Repeat("details of the new schedule ", 12),
	}, filler(3)...)
	text, stems := chunkOf(lines...)
	sn := pickSnippets(chunkText{text: text, stems: stems}, map[string]float64{"travel": 1, "budget": 1}, 1, SnippetChars)
	if !strings.Contains(sn[0].text, "budget") || !strings.Contains(sn[0].text, "finance moved") {
		t.Fatalf("snippet lacks the line after the match:\n%s", sn[0].text)
	}
}

func TestSnippetTakesContextAcrossChunkEdges(t *testing.T) {
	// small chunks: the matching line ends one chunk, its follow-up line
	// lies only in the next one, yet the snippet shows both and cites
	// exactly the lines it shows.
	// Every line is as long as the others, so the chunks end where they
	// would over filler alone; the question goes on the last line of the
	// first chunk.
	line := func(s string) string { return (s + strings.Repeat(".", 40))[:40] }
	var plain []string
	for i := 1; i <= 30; i++ {
		plain = append(plain, line(fmt.Sprintf("Filler %d about lunch and weather", i)))
	}
	p := Params{ChunkTokens: 100, OverlapTokens: 0}
	end := ChunkLines(strings.Join(plain, "\n"), p.ChunkTokens, p.OverlapTokens)[0].EndLine
	plain[end-1] = line("Why does the ledger backup fail?")
	plain[end] = line("The disk quota was reached")
	dir := t.TempDir()
	write(t, filepath.Join(dir, "page.md"), strings.Join(plain, "\n")+"\n")
	ix := indexed(t, t.TempDir(), Root{Dir: dir, Kind: KindDir}, p)
	var chunkEnd int
	if err := ix.db.QueryRow(`SELECT min(end_line) FROM chunks WHERE end_line >= ?`, end).Scan(&chunkEnd); err != nil {
		t.Fatal(err)
	}
	if chunkEnd != end {
		t.Fatalf("fixture: the question's chunk ends at %d, want %d", chunkEnd, end)
	}
	o := defaults()
	o.HalfLifeDays = 0
	r, err := Search(context.Background(), []*Index{ix}, "ledger backup", o)
	if err != nil || len(r.Results) == 0 {
		t.Fatalf("no results: %v", err)
	}
	res := r.Results[0]
	if !strings.Contains(res.Snippet, "ledger") || !strings.Contains(res.Snippet, "disk quota") {
		t.Fatalf("snippet stops at the chunk's edge: %q", res.Snippet)
	}
	lines, _ := ReadLines(filepath.Join(dir, "page.md"), res.StartLine, res.EndLine-res.StartLine+1, 0)
	if strings.TrimRight(lines, "\n") != res.Snippet {
		t.Fatalf("snippet %q is not the cited lines %d-%d %q", res.Snippet, res.StartLine, res.EndLine, lines)
	}
}
