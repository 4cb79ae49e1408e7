package search

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

func vaultDir(t *testing.T, lang string) string {
	return testfile.Shared(t, "fixtures", "vaults", "obsidianmd__obsidian-help", lang)
}

func TestRealVaultRussianInflections(t *testing.T) {
	ix := indexed(t, t.TempDir(), Root{Dir: vaultDir(t, "ru"), Kind: KindOrg}, Params{})
	files, chunks, _ := ix.Stats()
	if files != 173 || chunks < files {
		t.Fatalf("indexed %d files, %d chunks", files, chunks)
	}
	// "синхронизациями" occurs once in the vault; its other forms hundreds of times
	r, err := Search(context.Background(), []*Index{ix}, "синхронизациями", defaults())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Results) < 5 {
		t.Fatalf("%d results", len(r.Results))
	}
	for _, res := range r.Results[:5] {
		if !strings.Contains(strings.ToLower(res.Snippet), "синхронизац") {
			t.Errorf("snippet of %s lacks any form of the word", res.Citation)
		}
	}
	r, _ = Search(context.Background(), []*Index{ix}, "установить сторонние плагины", defaults())
	if len(r.Results) == 0 || !strings.Contains(r.Results[0].Path, "плагин") {
		t.Fatalf("plugin query led to %v", paths(r))
	}
}

func TestRealVaultEnglish(t *testing.T) {
	ix := indexed(t, t.TempDir(), Root{Dir: vaultDir(t, "en"), Kind: KindOrg}, Params{})
	r, err := Search(context.Background(), []*Index{ix}, "install community plugins", defaults())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Results) == 0 || !strings.Contains(strings.ToLower(r.Results[0].Path), "community plugins") {
		t.Fatalf("top results %v", paths(r))
	}
}

// BenchmarkAutoRecall is the hook's hot path over the real English vault:
// open the existing index, search, gate, format. It reports the median
// (p50-ms) besides the mean.
func BenchmarkAutoRecall(b *testing.B) {
	dir := testfile.Shared(b, "fixtures", "vaults", "obsidianmd__obsidian-help", "en")
	state := b.TempDir()
	root := Root{Dir: dir, Kind: KindOrg}
	ix, err := Open(state, root, Params{ChunkTokens: 400, OverlapTokens: 80})
	if err != nil {
		b.Fatal(err)
	}
	ix.Update(context.Background(), now, nil)
	ix.Close()
	o := defaults()
	o.Limit = 3
	took := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		got, err := AutoRecall(context.Background(), state, []Root{root}, "how do I sync settings between devices?", o, 0.5)
		if err != nil || got == "" {
			b.Fatalf("recalled %q, %v", got, err)
		}
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
}
