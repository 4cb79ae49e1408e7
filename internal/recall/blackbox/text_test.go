package blackbox

import (
	"context"
	"path/filepath"
	"testing"
)

func TestMarkdownScanPassagesAndSkips(t *testing.T) {
	root := t.TempDir()
	long := filepath.Join(root, "long")
	writeFile(t, filepath.Join(long, "index.md"), "# Index\n- [[deploy]] — deploy key rotation policy\n")
	writeFile(t, filepath.Join(long, "raw", "big.md"), "deploy key rotation policy, the raw source\n")
	writeFile(t, filepath.Join(long, "wiki", "deploy.md"), "---\ntype: concept\ntitle: rotation\n---\n\n# Deploy\n\nIntro.\n\n## Key rotation\n\nThe deploy key rotates every ninety days.\n")
	writeFile(t, filepath.Join(long, "wiki", "ru.md"), "---\ntype: concept\n---\n# Ключи\n\nКлючи развёртывания меняются каждые девяносто дней.\n")
	m := MarkdownScan{Base: root, Dirs: []string{long}, Skip: []string{"raw"}, SkipFiles: GeneratedFiles}
	hits, err := m.Search(context.Background(), "how often does the deploy key rotate?", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].Cite() != "long/wiki/deploy.md#L12-L12" || hits[0].Heading != "Key rotation" || hits[0].Score < MinCoverage || hits[1].Score >= MinCoverage {
		t.Fatalf("best passage: %+v", hits)
	}
	for _, h := range hits {
		if h.Path == "long/index.md" || h.Path == "long/raw/big.md" {
			t.Fatalf("generated or raw file scanned: %+v", h)
		}
	}
	ru, _ := m.Search(context.Background(), "как часто меняют ключ развёртывания", 10)
	if len(ru) == 0 || ru[0].Path != "long/wiki/ru.md" || ru[0].Score < MinCoverage {
		t.Fatalf("Russian forms must meet through the stemmer: %+v", ru)
	}
	if none, _ := m.Search(context.Background(), "what is it", 10); len(none) != 0 {
		t.Fatalf("a question of stop words matches nothing: %+v", none)
	}
}

func TestPassagesInAndScanRanges(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "records.md")
	writeFile(t, p, "---\ntype: records\n---\n\n# Remembered\n\n## one\n<!-- cerebro:record id=r-1 geo=San+Sebastian -->\nAnna parks the sedan\n\n## two\nBob walks\n")
	got := PassagesIn(root, p, 1, 9, "who parks the sedan")
	if len(got) != 1 || got[0].Record != "r-1" || got[0].Scope.Geo != "San Sebastian" || got[0].Text != "Anna parks the sedan" || got[0].Cite() != "records.md#L9-L9" {
		t.Fatalf("the chunk's lines hold one passage with text: %+v", got)
	}
	if hits := ScanRanges(root, []Range{{Path: p, From: 11, To: 12}}, "where does Bob walk", 5); len(hits) != 1 || hits[0].Heading != "two" {
		t.Fatalf("%+v", hits)
	}
	if hits := ScanRanges(root, []Range{{Path: p, From: 1, To: 9}}, "where does Bob walk", 5); len(hits) != 0 {
		t.Fatalf("only the passages in range are scored: %+v", hits)
	}
}
