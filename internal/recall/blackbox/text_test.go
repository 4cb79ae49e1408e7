package blackbox

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/search"
)

// indexedText is level 2 over a search index of root's memory in a temp
// dir, ranked with the default search settings.
func indexedText(t testing.TB, root string, now func() time.Time) *Indexed {
	t.Helper()
	return &Indexed{Now: now, Memory: &search.Memory{
		Base: root, Roots: search.Roots(root, "", "", search.ScopeProject), IndexDir: t.TempDir(),
		Params: search.Params{ChunkTokens: 400, OverlapTokens: 80}, UpdateBudget: time.Minute,
		Options: search.Options{CandidatePool: 50, HalfLifeDays: 30, RecencyFloor: 0.9, DateBoost: 2,
			MMRLambda: 0.7, VectorWeight: 0.7, TextWeight: 0.3},
	}}
}

// Level 2 is search's ranking and coverage: the passage answering is
// found with its heading, generated lists and raw sources are left out,
// Russian forms meet through the stemmer, and a question of stop words
// finds nothing.
func TestIndexedSearchesTheMemory(t *testing.T) {
	root := t.TempDir()
	long := filepath.Join(root, ".claude", "memory_long")
	writeFile(t, filepath.Join(long, "index.md"), "# Index\n- [[deploy]] — deploy key rotation policy\n")
	writeFile(t, filepath.Join(long, "raw", "big.md"), "deploy key rotation policy, the raw source\n")
	writeFile(t, filepath.Join(long, "wiki", "deploy.md"), "---\ntype: concept\ntitle: rotation\n---\n\n# Deploy\n\nIntro.\n\n## Key rotation\n\nThe deploy key rotates every ninety days.\n")
	writeFile(t, filepath.Join(long, "wiki", "ru.md"), "---\ntype: concept\n---\n# Ключи\n\nКлючи развёртывания меняются каждые девяносто дней.\n")
	writeFile(t, filepath.Join(long, "wiki", "other.md"), "# Other\n\nThe deploy runs on Fridays.\n")
	text := indexedText(t, root, time.Now)
	ctx := context.Background()
	hits, err := text.Search(ctx, "how often does the deploy key rotate?", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].Cite() != ".claude/memory_long/wiki/deploy.md#L12-L12" || hits[0].Heading != "Key rotation" || hits[0].Score < MinCoverage {
		t.Fatalf("best passage: %+v", hits)
	}
	for _, h := range hits {
		if filepath.Base(h.Path) == "index.md" || filepath.Base(h.Path) == "big.md" {
			t.Fatalf("generated or raw file searched: %+v", h)
		}
		if h.Path == ".claude/memory_long/wiki/other.md" && h.Score >= MinCoverage {
			t.Fatalf("a passage holding one word of three answers: %+v", h)
		}
	}
	ru, err := text.Search(ctx, "как часто меняют ключ развёртывания", 10)
	if err != nil || len(ru) == 0 || ru[0].Path != ".claude/memory_long/wiki/ru.md" || ru[0].Score < MinCoverage {
		t.Fatalf("Russian forms must meet through the stemmer: %+v, %v", ru, err)
	}
	if none, err := text.Search(ctx, "what is it", 10); err != nil || len(none) != 0 {
		t.Fatalf("a question of stop words matches nothing: %+v, %v", none, err)
	}
}

// A search result showing several remembered records is cut at their
// sections: each hit is one record with its marker's id and scope, scored
// by what it shows, so a record never answers with its neighbour's words.
func TestIndexedCutsResultsAtSections(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, ".claude", "memory_long", "records", "2026-11.md")
	writeFile(t, p, "---\ntype: records\n---\n\n# Remembered\n\n## one\n<!-- cerebro:record id=r-1 geo=San+Sebastian -->\nAnna parks the sedan\n\n## two\nBob walks the dog\n\n## three\nCarol sings\n")
	text := indexedText(t, root, time.Now)
	got, err := text.Search(context.Background(), "where does Anna park the sedan", 5)
	if err != nil || len(got) == 0 {
		t.Fatalf("%+v, %v", got, err)
	}
	if h := got[0]; h.Record != "r-1" || h.Scope.Geo != "San Sebastian" || h.Text != "Anna parks the sedan" || h.Cite() != ".claude/memory_long/records/2026-11.md#L9-L9" || h.Score < MinCoverage {
		t.Fatalf("the record answering, alone: %+v", h)
	}
	for _, h := range got {
		if h.Heading != "one" && h.Score > 0 {
			t.Fatalf("Bob's record holds none of the question: %+v", h)
		}
	}
	bob, err := text.Search(context.Background(), "Anna, Bob and Carol", 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range bob {
		if h.Score >= MinCoverage {
			t.Fatalf("no one record holds Anna, Bob and Carol: %+v", h)
		}
	}
}
