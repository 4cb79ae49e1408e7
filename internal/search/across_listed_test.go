package search

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"
)

// The catalog's candidates are ranked as Search ranks them: where both
// take the same chunks (every chunk holding a word that picks candidates
// fits the pool), the results are the same, scores, lines and snippets
// alike; and a cut leaves out no result above it. It pins the formulas
// across_listed.go repeats from searchStems and textCandidates.
func TestListedSearchRanksAsSearch(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	var vocab []string
	for i := 0; i < 160; i++ {
		vocab = append(vocab, fmt.Sprintf("w%03d", i))
	}
	vocab = append(vocab, strings.Fields("deploy kafka retention ledger lock export проект сервер миграция релиз")...)
	para := func(n int) string {
		var b strings.Builder
		for w := 0; w < n; w++ {
			// the first words are common, the rest rare
			k := r.Intn(12)
			if r.Intn(3) == 0 {
				k = r.Intn(len(vocab))
			}
			b.WriteString(vocab[k])
			if w%9 == 8 {
				b.WriteString(".\n")
			} else {
				b.WriteByte(' ')
			}
		}
		return b.String() + "\n"
	}
	dir := t.TempDir()
	state := t.TempDir()
	short := filepath.Join(dir, "short")
	long := filepath.Join(dir, "long")
	for d := 0; d < 14; d++ {
		day := now.AddDate(0, 0, -3*d).Format("2006-01-02")
		// long enough for several chunks, so that neighbours give context
		write(t, filepath.Join(short, "daily", day+".md"), "# "+day+"\n\n## 10:00 · session 1 · auto\n"+para(150+r.Intn(500)))
	}
	for p := 0; p < 10; p++ {
		write(t, filepath.Join(long, fmt.Sprintf("area/page %d.md", p)), fmt.Sprintf("# Page %d\n\n## %s %s\n\n%s", p, vocab[12+p], vocab[30+p], para(80+r.Intn(300))))
	}
	write(t, filepath.Join(long, "kafka retention.md"), "# Kafka\n\n"+para(60)+"kafka retention is seven days.\n")
	// two words that never meet in one chunk: the proximity factor bounds
	// each one's chunk
	write(t, filepath.Join(long, "zebra.md"), "# Crossings\n\nThe zebra crossing by the office.\n")
	write(t, filepath.Join(long, "quokka.md"), "# Islands\n\nA quokka lives on Rottnest.\n")
	// words that meet only in a heading, or only in a title
	write(t, filepath.Join(long, "harbour.md"), "# Harbour\n\n## otter walrus\n\nThe otter swims.\nA walrus sleeps.\n")
	write(t, filepath.Join(long, "cliffs.md"), "# Puffin gannet\n\nThe puffin dives.\nA gannet circles.\n")
	ctx := context.Background()
	cat, err := openCatalog(state)
	if err != nil {
		t.Fatal(err)
	}
	defer cat.close()
	queries := []string{"kafka retention", "ledger lock export", "проект миграция сервер", "deploy w100 w140", "w013 w031", "w001 w150 релиз", "w005"}
	for i := 0; i < 12; i++ {
		queries = append(queries, vocab[12+r.Intn(len(vocab)-12)]+" "+vocab[12+r.Intn(len(vocab)-12)]+" "+vocab[r.Intn(12)])
	}
	queries = append(queries, "zebra quokka", "otter walrus", "puffin gannet")
	checked, tighter, lowered := 0, 0, 0
	for _, root := range []Root{{Dir: short, Kind: KindShort}, {Dir: long, Kind: KindLong}} {
		ix := indexed(t, state, root, Params{})
		e, err := cat.snapshot(ctx, ix)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range queries {
			words := queryWords(q)
			df, n, err := ix.docFreqs(words)
			if err != nil {
				t.Fatal(err)
			}
			st := &corpusStats{df: df, n: n}
			o := defaults()
			o.MMR, o.Base, o.stats, o.CandidatePool = false, dir, st, 50
			ws, err := cat.words(ctx, map[int64]bool{e.id: true}, words)
			if err != nil {
				t.Fatal(err)
			}
			named, err := cat.named(ctx, map[int64]bool{e.id: true}, words)
			if err != nil {
				t.Fatal(err)
			}
			b := newBounds(q, words, st, o)
			bound, listed := b.of(ws[e.id], named[e.id])
			if qb := b.quick(ws[e.id], named[e.id]); qb < bound {
				t.Fatalf("%s: %q: the quick bound %.6f is below the exact one %.6f", root.Kind, q, qb, bound)
			}
			loose := *b
			loose.near = false
			looseBound, _ := loose.of(ws[e.id], named[e.id])
			if looseBound+1e-12 < bound {
				t.Fatalf("%s: %q: the bound with the proximity factor %.4f is above the one without %.4f", root.Kind, q, bound, looseBound)
			}
			if looseBound > bound+1e-9 {
				tighter++
			}
			// each listed chunk's proximity factor is at most what its
			// lists' lines allow
			factors := map[int64]float64{}
			b.setBounds(0, ws[e.id], named[e.id], factors)
			idf := map[string]float64{}
			for _, s := range b.sets[0] {
				idf[s] = b.idf[s]
			}
			for id, f := range factors {
				var stems, title, heads string
				if err := ix.db.QueryRow(`SELECT stems, title, heads FROM chunks_fts WHERE rowid = ?`, id).Scan(&stems, &title, &heads); err != nil {
					t.Fatal(err)
				}
				occ, line := occurrences(stems, idf, 0, nil)
				occ, line = occurrences(title, idf, line, occ)
				occ, _ = occurrences(heads, idf, line, occ)
				if p := proximity(occ, idf); p > f+1e-9 {
					t.Errorf("%s: %q: chunk %d: proximity %.4f above its bound %.4f", root.Kind, q, id, p, f)
				}
				if f < 1 {
					lowered++
				}
			}
			plan := b.plan(ws[e.id], listed, named[e.id], o.CandidatePool, nil)
			if plan == nil {
				t.Fatalf("%s: %q: no candidates from the lists", root.Kind, q)
			}
			if len(b.match) == 0 {
				continue // none of its words is in this index
			}
			// the chunks holding a word that picks candidates: FTS5's
			var holding int
			if err := ix.db.QueryRow(`SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?`, ftsQuery(b.match)).Scan(&holding); err != nil {
				t.Fatal(err)
			}
			if holding > o.CandidatePool {
				continue // Search would take FTS5's best of them, another set
			}
			if len(plan.ids) != holding {
				t.Fatalf("%s: %q: %d candidates from the lists, %d chunks hold the words", root.Kind, q, len(plan.ids), holding)
			}
			want, err := Search(ctx, []*Index{ix}, q, o)
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range want.Results {
				if x.Score > bound+1e-4 { // scores are rounded to 4 places
					t.Errorf("%s: %q: %s scores %.4f above its index's bound %.4f", root.Kind, q, x.Citation, x.Score, bound)
				}
			}
			got, err := ix.searchListed(ctx, q, plan, o, 0)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := full(got), full(want); a != b {
				t.Errorf("%s: %q: from the lists\n%s\nSearch\n%s", root.Kind, q, a, b)
			}
			if len(want.Results) > 2 {
				cut := want.Results[2].Score
				part, err := ix.searchListed(ctx, q, plan, o, cut)
				if err != nil {
					t.Fatal(err)
				}
				kept := full(part)
				for _, x := range want.Results {
					if line := fmt.Sprintf("%s %.4f %q\n", x.Citation, x.Score, x.Snippet); x.Score > cut+1e-4 && !strings.Contains(kept, line) {
						t.Errorf("%s: %q: the cut %.4f left out %s", root.Kind, q, cut, line)
					}
				}
			}
			checked++
		}
	}
	t.Logf("%d searches compared; the proximity factor lowered %d indexes' bounds, %d chunks'", checked, tighter, lowered)
	if tighter == 0 || lowered == 0 {
		t.Error("the proximity factor lowered no bound")
	}
	if checked < len(queries) {
		t.Fatalf("only %d of %d searches compared", checked, 2*len(queries))
	}
}

func full(r *Response) string {
	var b strings.Builder
	for _, x := range r.Results {
		fmt.Fprintf(&b, "%s %.4f %q\n", x.Citation, x.Score, x.Snippet)
	}
	return b.String()
}

// The proximity factor a chunk's bound takes: a word a chunk may hold
// unlisted (it has a rest) may stand beside any other; words listed for
// it are close only where their lines meet.
func TestBoundProximityFactor(t *testing.T) {
	b := &bounds{idf: map[string]float64{"a": 1, "b": 2, "c": 1}, sets: [][]string{{"a", "b", "c"}}, boost: []float64{1}, near: true}
	list := func(id int64, lines uint64) []posting {
		return []posting{{id: id, impact: impact{1, 1}, lines: lines}}
	}
	for _, c := range []struct {
		name string
		ws   map[string]wordStat
		want float64
	}{
		{"one word", map[string]wordStat{"a": {df: 1, postings: list(1, 1)}}, proximityFloor},
		{"two words apart", map[string]wordStat{"a": {df: 1, postings: list(1, 1)}, "b": {df: 1, postings: list(1, 2)}}, proximityFloor},
		{"two words on a line", map[string]wordStat{"a": {df: 1, postings: list(1, 3)}, "b": {df: 1, postings: list(1, 2)}}, 1},
		{"a word anywhere", map[string]wordStat{"a": {df: 1, postings: list(1, 1)}, "b": {df: 200, rest: impact{0.5, 0.5}}}, 1},
		{"two apart, one on a line with a third", map[string]wordStat{"a": {df: 1, postings: list(1, 1)}, "b": {df: 1, postings: list(1, 2)}, "c": {df: 1, postings: list(1, 1)}},
			proximityFloor + (1-proximityFloor)*2.0/4.0},
	} {
		f := map[int64]float64{}
		b.setBounds(0, c.ws, false, f)
		if math.Abs(f[1]-c.want) > 1e-9 {
			t.Errorf("%s: factor %.4f, want %.4f", c.name, f[1], c.want)
		}
	}
}
