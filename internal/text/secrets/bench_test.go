package secrets

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
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

// BenchmarkScanManyFindings scans a dump of n lines each holding an AWS
// secret: the cost per byte stays the same from 10,000 lines to 40,000
// (it grew with the square of the findings before, a 6.5 MB artifact of
// them took 25 s to relearn).
func BenchmarkScanManyFindings(b *testing.B) {
	for _, n := range []int{10_000, 40_000} {
		text := strings.Repeat("aws_secret_access_key = q8Hn2vT5kP0sLr7wXc4yBz1mFg6jDa9eUi3oNb5R\n", n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for i := 0; i < b.N; i++ {
				if got := len(Scan(text)); got != n {
					b.Fatalf("%d findings, want %d", got, n)
				}
			}
		})
	}
}
