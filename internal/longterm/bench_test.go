package longterm

import (
	"testing"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// Benchmarks over the Russian Obsidian help vault: loading is the baseline
// the graph, index and lint are compared with (bench/longterm/run).
func benchStore(b *testing.B) *Store {
	return &Store{Dir: testfile.Shared(b, "fixtures", "vaults", "obsidianmd__obsidian-help", "ru")}
}

func BenchmarkLoad(b *testing.B) {
	s := benchStore(b)
	for i := 0; i < b.N; i++ {
		if _, err := s.LoadVault(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadGraphIndex(b *testing.B) {
	s := benchStore(b)
	for i := 0; i < b.N; i++ {
		v, err := s.LoadVault()
		if err != nil {
			b.Fatal(err)
		}
		s.Graph(v).JSON()
		RenderIndex(nil, v)
	}
}

func BenchmarkLint(b *testing.B) {
	s := benchStore(b)
	for i := 0; i < b.N; i++ {
		if _, err := s.Lint(LintOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
