package search

import (
	"context"
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"
)

func TestCloseShare(t *testing.T) {
	idf := map[string]float64{"paint": 2, "sunris": 1}
	for _, c := range []struct {
		name  string
		lines []string
		want  float64
	}{
		{"adjacent", []string{"we paint a sunris"}, 1},
		{"on separate lines", []string{"we paint the fenc", "the sunris was earli"}, 0},
		{"six words apart", []string{"paint a b c d e sunris"}, 0},
		{"five words apart", []string{"paint a b c d sunris"}, 1},
		// a word is close once one of its occurrences is
		{"one pair close, a repeat far", []string{"sunris paint", "paint x"}, 1},
		{"only one word present", []string{"paint paint"}, 0},
		{"no word present", []string{"noth here"}, 1},
	} {
		if got := closeShare(c.lines, idf, proximityWindow); got != c.want {
			t.Errorf("%s: closeShare = %v, want %v", c.name, got, c.want)
		}
	}
	// a word close to another counts with its weight, one far from all does not
	idf3 := map[string]float64{"a": 1, "b": 1, "c": 2}
	if got := closeShare([]string{"a b", "c"}, idf3, proximityWindow); got != 0.5 {
		t.Errorf("weighted share = %v, want 0.5", got)
	}
	if got := closeShare([]string{"paint x sunris"}, map[string]float64{"paint": 1}, proximityWindow); got != 1 {
		t.Errorf("a one-word query: closeShare = %v, want 1", got)
	}
}

// The factor only ever lowers a score: the bounds a search across
// projects prunes by count on it.
func TestProximityNeverRaises(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	vocab := []string{"a", "b", "c", "d", "x", "y"}
	for i := 0; i < 2000; i++ {
		idf := map[string]float64{}
		for _, w := range vocab[:1+r.Intn(4)] {
			idf[w] = r.Float64() * 3
		}
		var lines []string
		for l := r.Intn(4); l >= 0; l-- {
			var ws []string
			for n := r.Intn(10); n > 0; n-- {
				ws = append(ws, vocab[r.Intn(len(vocab))])
			}
			lines = append(lines, strings.Join(ws, " "))
		}
		if f := proximity(lines, idf); f > 1 || f < proximityFloor {
			t.Fatalf("proximity(%q, %v) = %v, outside [%v, 1]", lines, idf, f, proximityFloor)
		}
	}
}

// A note where the query's words stand together outranks one holding
// them, even more often, on separate lines; without the factor the other
// note ranks first, so the factor is what orders them.
func TestProximityRanksWordsTogetherFirst(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "lake.md"), "Last spring we painted a sunrise over the lake.\nThen we walked home along the shore.\n")
	write(t, filepath.Join(dir, "fence.md"), "We painted the fence.\nThe sunrise was early.\n")
	for i, s := range []string{"The market sells bread and cheese.", "A long meeting about budgets.", "Trains were late again today.", "The cat slept all afternoon."} {
		write(t, filepath.Join(dir, "other"+string(rune('a'+i))+".md"), s+"\n")
	}
	ix := indexed(t, t.TempDir(), Root{Dir: dir, Kind: KindDir}, Params{})
	search := func(o Options) []string {
		t.Helper()
		r, err := Search(context.Background(), []*Index{ix}, "painted sunrise", o)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, x := range r.Results {
			got = append(got, fmt.Sprintf("%s %.4f", filepath.Base(x.Path), x.Score))
		}
		return got
	}
	o := Options{Limit: 5, CandidatePool: 50, Now: now}
	got := search(o)
	if len(got) < 2 || !strings.HasPrefix(got[0], "lake.md") {
		t.Errorf("with proximity: got %q, want lake.md first", got)
	}
	o.NoProximity = true
	off := search(o)
	if len(off) < 2 || !strings.HasPrefix(off[0], "fence.md") {
		t.Errorf("without proximity: got %q, want fence.md first (else this test proves nothing)", off)
	}
}
