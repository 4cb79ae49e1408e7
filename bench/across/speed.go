package main

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"time"

	"github.com/cerebro-mem/cerebro/internal/search"
)

func speed(desk []*proj, asker *proj, home, state string, params search.Params, n int) error {
	ctx := context.Background()
	var qs []string
	var real []question
	for _, p := range desk {
		real = append(real, p.qs...)
	}
	r := rand.New(rand.NewSource(11))
	for i := 0; i < n && len(real) > 0; i++ {
		qs = append(qs, real[r.Intn(len(real))].text)
	}
	now := time.Now()
	one := memory(asker, desk, home, state, params, now, false, 0)
	across := memory(asker, desk, home, state, params, now, true, 0)
	// a first search with no catalog, then one after another project's
	// memory changed
	os.Remove(search.CatalogPath(state))
	t0 := time.Now()
	if _, err := across.Query(ctx, qs[0], 10, now, nil); err != nil {
		return err
	}
	cold := time.Since(t0)
	catBytes := int64(0)
	if fi, err := os.Stat(search.CatalogPath(state)); err == nil {
		catBytes = fi.Size()
	}
	var single, multi []time.Duration
	searched, ruled, late, idxs, lists := 0, 0, 0, 0, 0
	for round := 0; round < 2; round++ { // the first round warms the page cache

		single, multi = nil, nil
		searched, ruled, late, idxs, lists = 0, 0, 0, 0, 0
		if round == 1 && cpuProfile != "" {
			f, err := os.Create(cpuProfile)
			if err != nil {
				return err
			}
			defer f.Close()
			if err := pprof.StartCPUProfile(f); err != nil {
				return err
			}
		}
		for _, q := range qs {
			t := time.Now()
			if _, err := one.Query(ctx, q, 10, now, nil); err != nil {
				return err
			}
			single = append(single, time.Since(t))
			t = time.Now()
			resp, err := across.Query(ctx, q, 10, now, nil)
			if err != nil {
				return err
			}
			multi = append(multi, time.Since(t))
			searched += resp.Across.Searched
			ruled += resp.Across.RuledOut
			late += len(resp.Across.NotReached)
			idxs += resp.Across.Indexes
			lists += resp.Across.FromLists
		}
	}
	if cpuProfile != "" {
		pprof.StopCPUProfile()
	}
	other := desk[len(desk)-1]
	if other == asker {
		other = desk[0]
	}
	day := filepath.Join(other.root, ".claude", "memory_short", "daily", now.Format("2006-01-02")+".md")
	os.MkdirAll(filepath.Dir(day), 0o755)
	os.WriteFile(day, []byte("# today\n\n## 10:00 · session 1 · auto\n- The migration of the ledger finished.\n"), 0o644)
	t0 = time.Now()
	if _, err := across.Query(ctx, qs[1], 10, now, nil); err != nil {
		return err
	}
	changed := time.Since(t0)
	p50s, p50m := pct(single, 0.5), pct(multi, 0.5)
	fmt.Printf("speed: %d questions asked from a generated project of %d files, turn about, in process, index open per search as memhook does\n\n", len(qs), asker.files)
	fmt.Printf("| | p50 | p95 |\n| --- | --- | --- |\n")
	fmt.Printf("| `--scope project` (this project: %d indexes) | %s | %s |\n", len(asker.idxs), ms(p50s), ms(pct(single, 0.95)))
	fmt.Printf("| `--scope projects` (%d projects, %d indexes) | %s | %s |\n", len(desk), countIdx(desk), ms(p50m), ms(pct(multi, 0.95)))
	fmt.Printf("| **ratio** | **%.2f** | %.2f |\n\n", p50m.Seconds()/p50s.Seconds(), pct(multi, 0.95).Seconds()/pct(single, 0.95).Seconds())
	fmt.Printf("per search across projects: %.1f projects searched (%.1f of the other projects' %d indexes, %.1f of them from the catalog's candidates), %.1f ruled out by their bounds, %.2f not reached in time (of %d)\n",
		float64(searched)/float64(len(qs)), float64(idxs)/float64(len(qs)), countIdx(desk)-len(asker.idxs), float64(lists)/float64(len(qs)), float64(ruled)/float64(len(qs)), float64(late)/float64(len(qs)), len(desk))
	fmt.Printf("first search with no catalog (every index read into it): %s (catalog %.1f MB); after another project's memory changed: %s\n", ms(cold), float64(catBytes)/1e6, ms(changed))
	return nil
}

func countIdx(desk []*proj) int {
	n := 0
	for _, p := range desk {
		n += len(p.idxs)
	}
	return n
}

func pct(d []time.Duration, p float64) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[int(p*float64(len(s)-1))]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
