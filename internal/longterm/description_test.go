package longterm

import (
	"fmt"
	"strings"
	"testing"
)

func TestCleanDescription(t *testing.T) {
	long := strings.Repeat("word ", 200)
	for _, c := range []struct{ in, want string }{
		{"how releases leave", "how releases leave"},
		{"how releases leave. How releases leave. how  releases leave.", "how releases leave."},
		{"when releases leave when releases leave when releases leave", "when releases leave"},
		{"Релизы по пятницам; релизы по пятницам; и никогда в понедельник", "Релизы по пятницам; и никогда в понедельник"},
		{"the api · the API · the queue", "the api · the queue"},
		{"a b a b", "a b"},
		{"no no, not again", "no no, not again"}, // one word said twice is speech, not growth
		{long, "word word"},                      // runs of two words or more collapse
	} {
		if got := CleanDescription(c.in); got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.in, got, c.want)
		}
	}
	var ws []string
	for i := 0; i < 120; i++ {
		ws = append(ws, fmt.Sprintf("step%d", i))
	}
	varied := strings.Join(ws, " ") // long, and no run repeats itself
	got := CleanDescription(varied)
	if r := []rune(got); len(r) > MaxDescriptionRunes+1 || !strings.HasSuffix(got, "…") {
		t.Fatalf("an over-long description is bounded with an ellipsis: %d runes %q", len(r), got)
	}
	for _, in := range []string{"how releases leave. How releases leave.", long, varied} {
		once := CleanDescription(in)
		if twice := CleanDescription(once); twice != once {
			t.Fatalf("a tidy description changes again:\n%q\n%q", once, twice)
		}
	}
}
