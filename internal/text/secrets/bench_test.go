package secrets

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// BenchmarkScan scans the English Obsidian help vault, page by page
// (skipped without the fixtures).
func BenchmarkScan(b *testing.B) {
	var texts []string
	var n int64
	root := testfile.Shared(b, "fixtures", "vaults", "obsidianmd__obsidian-help", "en")
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			if data, err := os.ReadFile(p); err == nil {
				texts = append(texts, string(data))
				n += int64(len(data))
			}
		}
		return nil
	})
	if len(texts) == 0 {
		b.Fatalf("no pages in %s", root)
	}
	b.SetBytes(n)
	for i := 0; i < b.N; i++ {
		for _, t := range texts {
			Scan(t)
		}
	}
}
