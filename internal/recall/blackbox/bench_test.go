package blackbox

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/recall/kgraph"
	"github.com/cerebro-mem/cerebro/internal/recall/tables"
)

// benchBox is a memory of 2,000 remembered records, 200 table rows and 100
// wiki pages linked in a chain, the size of a year of a busy project.
func benchBox(b *testing.B) *Box {
	b.Helper()
	root := b.TempDir()
	long := filepath.Join(root, ".claude", "memory_long")
	st, err := tables.Open(filepath.Join(long, TablesDir, "journal.jsonl"), filepath.Join(b.TempDir(), "tables.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	box := &Box{Root: root, LongDir: long, Tables: st, OffersPath: filepath.Join(b.TempDir(), "offers.jsonl"),
		Text: indexedText(b, root, time.Now)}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 2000; i++ {
		req, fates, _ := ParseRemember(Raw{"text": []byte(fmt.Sprintf("%q", fmt.Sprintf("Meeting %d decided that service s%d uses port %d and owner o%d", i, i, 8000+i, i%37)))})
		if _, err := box.Remember(context.Background(), req, fates, now.Add(time.Duration(i)*time.Hour)); err != nil {
			b.Fatal(err)
		}
	}
	st.Create("services", now)
	st.NewKind("services", "port", now)
	for i := 0; i < 200; i++ {
		st.Write("services", "port", tables.Value{Key: fmt.Sprintf("svc%d", i), Value: fmt.Sprint(9000 + i)}, now)
	}
	for i := 0; i < 100; i++ {
		writeFile(b, filepath.Join(long, "wiki", fmt.Sprintf("node%d.md", i)), fmt.Sprintf("---\ntype: concept\n---\n# node%d\n\nNext: [[node%d]]\n", i, i+1))
		if _, err := kgraph.Link(long, fmt.Sprintf("station%d", i), fmt.Sprintf("station%d", i+1), "next", "", now, 0); err != nil {
			b.Fatal(err)
		}
	}
	return box
}

func benchRecall(b *testing.B, q string, want int) {
	box := benchBox(b)
	req, fates, _ := ParseRecall(Raw{"text": []byte(fmt.Sprintf("%q", q))}, box.Caps())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ans, err := box.Recall(context.Background(), req, fates, time.Now())
		if err != nil || ans.DepthUsed != want {
			b.Fatalf("depth %d, want %d: %v", ans.DepthUsed, want, err)
		}
	}
}

func BenchmarkRecallLevel1(b *testing.B) { benchRecall(b, "services port of svc150", 1) }
func BenchmarkRecallLevel2(b *testing.B) { benchRecall(b, "which port does service s1500 use", 2) }
func BenchmarkRecallLevel3(b *testing.B) { benchRecall(b, "station40 and station43", 3) }
