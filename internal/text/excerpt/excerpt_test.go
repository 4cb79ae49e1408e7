package excerpt

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

func query(q string) map[string]bool {
	m := map[string]bool{}
	for _, s := range textan.QueryTerms(q) {
		m[s] = true
	}
	return m
}

// filler is n runes or more of varied words holding none of the tests' query words.
func filler(words []string, n int) string {
	var b strings.Builder
	for i := 0; utf8.RuneCountInString(b.String()) < n; i++ {
		b.WriteString(words[(i*7+i/3)%len(words)])
		b.WriteByte(' ')
	}
	return b.String()
}

var enFill = []string{"the", "garden", "wall", "was", "painted", "green", "last", "summer", "and", "nobody", "noticed", "until", "autumn", "leaves", "covered", "it", "again"}
var ruFill = []string{"в", "саду", "стояла", "старая", "скамейка", "которую", "никто", "не", "красил", "много", "лет", "подряд", "и", "она", "скрипела"}

// checkCut asserts what every excerpt must satisfy: valid UTF-8, at most
// max runes, its text is the lines' text between its offsets (ellipses
// aside), its line range is the lines of those offsets, and no word is cut
// unless that word alone is longer than the window.
func checkCut(t *testing.T, lines []string, max int, ex Excerpt) {
	t.Helper()
	if !utf8.ValidString(ex.Text) {
		t.Fatalf("invalid UTF-8: %q", ex.Text)
	}
	if n := utf8.RuneCountInString(ex.Text); n > max && max >= 3 {
		t.Fatalf("excerpt of %d runes, max %d: %q", n, max, ex.Text)
	}
	rs := []rune(strings.Join(lines, "\n"))
	body := strings.TrimSuffix(strings.TrimPrefix(ex.Text, Ellipsis), Ellipsis)
	if string(rs[ex.from:ex.to]) != body {
		t.Fatalf("text %q is not the lines' runes %d..%d %q", body, ex.from, ex.to, string(rs[ex.from:ex.to]))
	}
	wordLen := func(i int) int { // length of the word holding runes i-1 and i
		s, e := i, i
		for s > 0 && inWord(rs[s-1]) {
			s--
		}
		for e < len(rs) && inWord(rs[e]) {
			e++
		}
		return e - s
	}
	if f := ex.from; f > 0 && f < len(rs) && inWord(rs[f-1]) && inWord(rs[f]) && wordLen(f) <= max-2 {
		t.Fatalf("cut mid-word at the start: %q", ex.Text)
	}
	if e := ex.to; e > 0 && e < len(rs) && inWord(rs[e-1]) && inWord(rs[e]) && wordLen(e) <= max-2 {
		t.Fatalf("cut mid-word at the end: %q", ex.Text)
	}
	line := func(r int) int { return strings.Count(string(rs[:r]), "\n") }
	if ex.to > ex.from && (ex.First != line(ex.from) || ex.Last != line(ex.to-1)) {
		t.Fatalf("lines %d-%d, the text spans %d-%d", ex.First, ex.Last, line(ex.from), line(ex.to-1))
	}
}

func TestCutCentresOnAMatchFarIntoALongLine(t *testing.T) {
	line := filler(enFill, 2700) + "Then the deploy keys were rotated by Marta on Tuesday. " + filler(enFill, 1500)
	lines := []string{"# Notes", "", line, "short tail line"}
	ex := Cut(lines, query("who rotates deploy keys"), 300)
	checkCut(t, lines, 300, ex)
	if !strings.Contains(ex.Text, "deploy keys were rotated by Marta") {
		t.Fatalf("the match is not shown: %q", ex.Text)
	}
	if !strings.HasPrefix(ex.Text, Ellipsis) || !strings.HasSuffix(ex.Text, Ellipsis) {
		t.Errorf("a window inside a line wants an ellipsis on both cut sides: %q", ex.Text)
	}
	if ex.First != 2 || ex.Last != 2 || ex.Matched != 3 {
		t.Errorf("lines %d-%d, matched %d; want 2-2 and all 3 query words", ex.First, ex.Last, ex.Matched)
	}
	// centred: about as much before the match as after it
	i := strings.Index(ex.Text, "deploy")
	after := len(ex.Text) - strings.Index(ex.Text, "Tuesday")
	if i < 80 || after < 80 {
		t.Errorf("not centred (%d bytes before, %d after): %q", i, after, ex.Text)
	}
}

func TestCutInflectedCyrillic(t *testing.T) {
	line := filler(ruFill, 2700) + "Настройки синхронизации заметок между устройствами хранятся в облаке. " + filler(ruFill, 900)
	lines := []string{line}
	ex := Cut(lines, query("синхронизациями устройства"), 200)
	checkCut(t, lines, 200, ex)
	if !strings.Contains(ex.Text, "синхронизации заметок между устройствами") {
		t.Fatalf("the inflected match is not shown: %q", ex.Text)
	}
	if ex.Matched != 2 {
		t.Errorf("matched %d distinct words, want 2", ex.Matched)
	}
}

func TestCutPrefersTheSpanWithMoreDistinctWords(t *testing.T) {
	line := "kafka " + filler(enFill, 600) + "kafka kafka kafka " + filler(enFill, 600) + "kafka retention is seven days " + filler(enFill, 600)
	ex := Cut([]string{line}, query("kafka retention"), 120)
	if !strings.Contains(ex.Text, "kafka retention is seven days") {
		t.Fatalf("want the span holding both words, got %q", ex.Text)
	}
}

func TestCutWholeLinesWhenTheyFit(t *testing.T) {
	lines := []string{"## Sprint", "", "- planning on Monday", "- what do we use for payments?", "- Axolotl Pay, refunds in 5 days", "- lunch at noon", "- retro on Friday", "", "## Other", "- unrelated"}
	ex := Cut(lines, query("payments"), 120)
	checkCut(t, lines, 120, ex)
	if ex.Text != strings.Join(lines[ex.First:ex.Last+1], "\n") {
		t.Fatalf("whole lines wanted, got %q", ex.Text)
	}
	if ex.First > 3 || ex.Last < 4 {
		t.Fatalf("lines %d-%d do not hold the match and the line after it", ex.First, ex.Last)
	}
	if strings.Contains(ex.Text, Ellipsis) {
		t.Errorf("whole lines carry no ellipsis: %q", ex.Text)
	}
}

func TestCutWithoutAMatchShowsTheStart(t *testing.T) {
	line := filler(enFill, 1000)
	ex := Cut([]string{"", line}, query("zebra"), 100)
	checkCut(t, []string{"", line}, 100, ex)
	if ex.First != 1 || !strings.HasPrefix(line, strings.TrimSuffix(ex.Text, Ellipsis)) || !strings.HasSuffix(ex.Text, Ellipsis) {
		t.Fatalf("want the start of the text, got lines %d-%d %q", ex.First, ex.Last, ex.Text)
	}
}

func TestCutAWordLongerThanTheWindow(t *testing.T) {
	long := strings.Repeat("ж", 500)
	ex := Cut([]string{long + " deploy"}, query("zebra"), 50)
	checkCut(t, []string{long + " deploy"}, 50, ex)
	if utf8.RuneCountInString(ex.Text) != 49 || !strings.HasSuffix(ex.Text, Ellipsis) {
		t.Fatalf("a word longer than the window is cut to the window: %q", ex.Text)
	}
}

var fuzzWords = []string{"deploy", "keys", "rotated", "ключи", "ротации", "синхронизация", "a", "the", "и", "v1.2", "a828e60", "ёлка", "елке", "👍", "—", ",", "\n", "\n\n", "  ", "ударе\u0301ние", strings.Repeat("x", 90), "日本語"}

func randomText(r *rand.Rand) []string {
	var b strings.Builder
	for n := r.Intn(300); n > 0; n-- {
		b.WriteString(fuzzWords[r.Intn(len(fuzzWords))])
		if r.Intn(3) > 0 {
			b.WriteByte(' ')
		}
	}
	return strings.Split(b.String(), "\n")
}

func TestCutProperties(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 3000; i++ {
		lines := randomText(r)
		q := query(fuzzWords[r.Intn(len(fuzzWords))] + " " + fuzzWords[r.Intn(len(fuzzWords))])
		max := 3 + r.Intn(200)
		checkCut(t, lines, max, Cut(lines, q, max))
	}
}

func FuzzCut(f *testing.F) {
	f.Add("the deploy keys were rotated\nby Marta", "rotation keys", 20)
	f.Add("Настройки синхронизации заметок", "синхронизациями", 12)
	f.Add(strings.Repeat("ж", 100)+" x", "x", 10)
	f.Fuzz(func(t *testing.T, text, q string, max int) {
		if !utf8.ValidString(text) || max < 3 || max > 5000 {
			t.Skip()
		}
		lines := strings.Split(text, "\n")
		checkCut(t, lines, max, Cut(lines, query(q), max))
	})
}

func TestCutWeighsRareWordsAbove(t *testing.T) {
	line := "run the tests " + filler(enFill, 600) + "kubeconfig lives in ops " + filler(enFill, 600)
	w := map[string]float64{"run": 0.15, "test": 0.15, "kubeconfig": 1}
	ex := Cut([]string{line}, w, 100)
	if !strings.Contains(ex.Text, "kubeconfig lives in ops") {
		t.Fatalf("want the rare word's span, got %q", ex.Text)
	}
	if ex2 := Cut([]string{line}, map[string]bool{"run": true, "test": true, "kubeconfig": true}, 100); !strings.Contains(ex2.Text, "run the tests") {
		t.Fatalf("unweighted, two words beat one: %q", ex2.Text)
	}
}

func TestCutWordsOnManyLinesWeighLittle(t *testing.T) {
	var lines []string
	for i := 0; i < 30; i++ {
		who := "Melanie"
		if i > 10 {
			who = "Caroline"
		}
		lines = append(lines, fmt.Sprintf("- [D%d] %s: %s", i, who, filler(enFill, 90)))
	}
	lines[5] = "- [D5] Melanie: running, running and more running"
	lines[20] = "- [D20] Caroline: That charity race sounds great!"
	q := query("when did Melanie run a charity race")
	// unweighted, line 5 holds as many distinct words, and more of them
	if ex := Cut(lines, q, 110); ex.First != 20 || ex.Last != 20 {
		t.Fatalf("lines %d-%d, want line 20 whose words are on no other line:\n%s", ex.First, ex.Last, ex.Text)
	}
}

func TestCutStartsAtTheLineHeadWhenTheMatchIsNear(t *testing.T) {
	line := "- [D3:1] Caroline: " + filler(enFill, 250) + "my school event went well " + filler(enFill, 400)
	ex := Cut([]string{line}, query("school event"), 400)
	if !strings.HasPrefix(ex.Text, "- [D3:1] Caroline:") || !strings.Contains(ex.Text, "school event") || !strings.HasSuffix(ex.Text, Ellipsis) {
		t.Fatalf("the line's head and the match wanted: %q", ex.Text)
	}
}

// BenchmarkCut is auto-recall's cut of one 700-character snippet to 300.
func BenchmarkCut(b *testing.B) {
	lines := []string{filler(enFill, 300), "the deploy keys were rotated on Tuesday", filler(enFill, 300)}
	q := map[string]float64{"deploy": 1, "key": 1, "rotat": 1, "remind": 0.15}
	for i := 0; i < b.N; i++ {
		Cut(lines, q, 300)
	}
}
