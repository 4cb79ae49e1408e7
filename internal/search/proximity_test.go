package search

import (
	"context"
	"fmt"
	"math/rand"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/testfile"
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
		occ, _ := occurrences(strings.Join(lines, "\n"), idf, 0, nil)
		if f := proximity(occ, idf); f > 1 || f < proximityFloor {
			t.Fatalf("proximity(%q, %v) = %v, outside [%v, 1]", lines, idf, f, proximityFloor)
		}
	}
}

// The one-pass scan over occurrences says what a word-by-word look at
// each one's window says.
func TestCloseShareMatchesEveryWindow(t *testing.T) {
	naive := func(lines []string, idf map[string]float64, w int) float64 {
		present, close := map[string]bool{}, map[string]bool{}
		for _, l := range lines {
			st := strings.Fields(l)
			for i, a := range st {
				if _, ok := idf[a]; !ok {
					continue
				}
				present[a] = true
				for j := max(0, i-w); j < len(st) && j <= i+w; j++ {
					if _, ok := idf[st[j]]; ok && st[j] != a {
						close[a] = true
					}
				}
			}
		}
		var all, got float64
		for _, s := range sortedKeys(present) {
			all += idf[s]
			if close[s] {
				got += idf[s]
			}
		}
		if len(idf) < 2 || all == 0 {
			return 1
		}
		return got / all
	}
	r := rand.New(rand.NewSource(2))
	vocab := []string{"a", "b", "c", "x", "y", "z", "q"}
	for i := 0; i < 5000; i++ {
		idf := map[string]float64{}
		for _, w := range vocab[:1+r.Intn(4)] {
			idf[w] = 0.1 + r.Float64()
		}
		var lines []string
		for l := r.Intn(4); l >= 0; l-- {
			var ws []string
			for n := r.Intn(14); n > 0; n-- {
				ws = append(ws, vocab[r.Intn(len(vocab))])
			}
			lines = append(lines, strings.Join(ws, " "))
		}
		w := 1 + r.Intn(6)
		if got, want := closeShare(lines, idf, w), naive(lines, idf, w); got != want {
			t.Fatalf("closeShare(%q, %v, %d) = %v, each window says %v", lines, idf, w, got, want)
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
	o.noProximity = true
	off := search(o)
	if len(off) < 2 || !strings.HasPrefix(off[0], "fence.md") {
		t.Errorf("without proximity: got %q, want fence.md first (else this test proves nothing)", off)
	}
}

// BenchmarkProximity weighs what the factor costs a search over the real
// English vault: each iteration runs the same queries with and without
// it, turn about, and the ratio of the two medians is reported.
func BenchmarkProximity(b *testing.B) {
	dir := testfile.Shared(b, "fixtures", "vaults", "obsidianmd__obsidian-help", "en")
	ix, err := Open(b.TempDir(), Root{Dir: dir, Kind: KindOrg}, Params{ChunkTokens: 400, OverlapTokens: 80})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Update(context.Background(), now, nil); err != nil {
		b.Fatal(err)
	}
	queries := []string{"install community plugins", "sync settings between devices", "link to a heading in another note", "canvas"}
	var on, off []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, noProx := range []bool{false, true} {
			o := defaults()
			o.noProximity = noProx
			start := time.Now()
			for _, q := range queries {
				if _, err := Search(context.Background(), []*Index{ix}, q, o); err != nil {
					b.Fatal(err)
				}
			}
			if noProx {
				off = append(off, time.Since(start))
			} else {
				on = append(on, time.Since(start))
			}
		}
	}
	slices.Sort(on)
	slices.Sort(off)
	b.ReportMetric(float64(on[len(on)/2].Microseconds())/1000, "on-p50-ms")
	b.ReportMetric(float64(off[len(off)/2].Microseconds())/1000, "off-p50-ms")
	b.ReportMetric(float64(on[len(on)/2])/float64(off[len(off)/2]), "on/off")
}
