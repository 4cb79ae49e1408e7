package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLexicalReachSortsQuestionsByWhereTheirWordsAre(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "2023-05-08.md")
	day := "# 2023-05-08\n\n" +
		"- [D1:1] Melanie: What got you into painting, Caroline?\n" +
		"- [D1:2] Caroline: My aunt gave me brushes when I was nine.\n" +
		"- [D1:3] Melanie: I'm off to do some taekwondo!\n" +
		"- [D1:4] Caroline: Caroline here, nothing else.\n"
	if err := os.WriteFile(f, []byte(day), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &conv{dir: dir, files: []string{f}, speakers: map[string]bool{"caroline": true, "melanie": true}, qs: []qa{
		{Question: "Who gave Caroline her brushes?", Evidence: []string{"D1:2"}, Category: 4},
		{Question: "Why did Caroline start painting?", Evidence: []string{"D1:2"}, Category: 4},
		{Question: "What martial arts has Melanie done?", Evidence: []string{"D1:3"}, Category: 1},
		// the speaker's name alone does not reach a line
		{Question: "What did Caroline say?", Evidence: []string{"D1:4"}, Category: 2},
	}}
	r, err := lexicalReach([]*conv{c})
	if err != nil {
		t.Fatal(err)
	}
	want := []reachClass{byLine, byNeighbour, byNeither, byNeither}
	for i, cl := range r.class[0] {
		if cl != want[i] {
			t.Errorf("question %q: %v, want %v", c.qs[i].Question, cl, want[i])
		}
	}
	if r.total != 4 || r.line != 3 || r.near != 2 || r.byCat[1] != [2]int{1, 1} || r.byCat[4] != [2]int{1, 0} {
		t.Errorf("counts: total %d, not by the line %d, nor by neighbours %d, by category %v", r.total, r.line, r.near, r.byCat)
	}
}

func TestTurnLine(t *testing.T) {
	for _, tc := range []struct{ line, id, text string }{
		{"- [D1:3] Caroline: hi there: all", "D1:3", "hi there: all"},
		{"- [D2:1] no speaker", "D2:1", "no speaker"},
	} {
		id, text, ok := turnLine(tc.line)
		if !ok || id != tc.id || text != tc.text {
			t.Errorf("turnLine(%q) = %q, %q, %v", tc.line, id, text, ok)
		}
	}
	for _, l := range []string{"# 2023-05-08", "", "- plain item", "- [D1:3]"} {
		if _, _, ok := turnLine(l); ok {
			t.Errorf("turnLine(%q) took a line that is no turn", l)
		}
	}
}
