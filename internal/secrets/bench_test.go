package secrets

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkScan scans a real help page (skipped without the fixtures).
func BenchmarkScan(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "fixtures", "vaults", "obsidianmd__obsidian-help", "en", "Obsidian Sync", "Security and privacy.md"))
	if err != nil {
		b.Skip(err)
	}
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		Scan(string(data))
	}
}
