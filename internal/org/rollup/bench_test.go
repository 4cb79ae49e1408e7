package rollup

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"

	"github.com/cerebro-mem/cerebro/internal/project"
)

// plantMany generates n projects in a spread of states (bench/rollup/run
// uses n = 1000) and registers them.
func plantMany(b *testing.B, n int) (*planted, []string) {
	b.Helper()
	root := b.TempDir()
	p := &planted{root: root, desk: filepath.Join(root, "cerebro")}
	p.registry = filepath.Join(p.desk, ".claude", "memory_short", "registry.json")
	var planFacts []string
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("p%04d", i)
		s := spec{name: name, planFact: planFact(name, []string{"active", "active", "paused", "completed"}[i%4], "on_track", "completed: 2026-11-2"+fmt.Sprint(i%10)+"\n")}
		if i%5 != 0 {
			s.dailyAt = day(i % 30)
		}
		if i%3 == 0 {
			s.archiveAt = day(40)
		}
		if i%50 == 0 {
			s.missing = true
		}
		p.entries = append(p.entries, plantProject(b, root, s))
		planFacts = append(planFacts, project.Layout{Root: p.entries[i].Path}.PlanFact())
	}
	p.writeRegistry(b, p.entries)
	settle(b, root)
	return p, planFacts
}

// settle flushes the file system's journal (one durable write does it on
// ext4 and the like), so that the fixtures just generated are not flushed
// by, and billed to, the first fsync inside a timed run.
func settle(b *testing.B, dir string) {
	if err := atomicfile.Write(filepath.Join(dir, ".settle"), []byte("x"), 0o644); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkReadPlanFacts1000 is the floor: only reading every plan-fact.
func BenchmarkReadPlanFacts1000(b *testing.B) {
	_, files := plantMany(b, 1000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			os.ReadFile(f)
		}
	}
}

// BenchmarkRollup1000 is a daily run: the registry, every project, the
// dashboard and the cache files (already there from the day before).
func BenchmarkRollup1000(b *testing.B) {
	p, _ := plantMany(b, 1000)
	dir := filepath.Dir(p.registry)
	if err := Write(dir, Collect(p.opts())); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := Write(dir, Collect(p.opts())); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRollup1000Cold is a first run: every cache file is new.
func BenchmarkRollup1000Cold(b *testing.B) {
	p, _ := plantMany(b, 1000)
	for i := 0; i < b.N; i++ {
		dir := filepath.Join(p.root, fmt.Sprintf("desk-%d", i))
		if err := Write(dir, Collect(p.opts())); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		settle(b, p.root)
		b.StartTimer()
	}
}

// BenchmarkCreate1000Files is the floor of a first run: creating a
// thousand small files in one folder and one durable write, nothing else.
func BenchmarkCreate1000Files(b *testing.B) {
	root := b.TempDir()
	for i := 0; i < b.N; i++ {
		dir := filepath.Join(root, fmt.Sprint(i))
		os.MkdirAll(dir, 0o755)
		for j := 0; j < 1000; j++ {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%04d.json", j)), []byte("{}\n"), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		if err := atomicfile.Write(filepath.Join(dir, "rollup.md"), []byte("x"), 0o644); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		settle(b, root)
		b.StartTimer()
	}
}
