package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// coldRounds measures only the cold index of the generated vault against
// a plain FTS5 load of the same notes, turn about, rounds times: on a
// shared machine one pair says little, the medians of several say more.
func coldRounds(vaults string, n, rounds int) error {
	work, err := os.MkdirTemp("", "cerebro-cold-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	dir := filepath.Join(work, "gen")
	if _, _, err := writeGenerated(dir, n, vocabulary(vaults)); err != nil {
		return err
	}
	var walls, cpus, wr, cr, sizes []float64
	for i := 0; i < rounds; i++ {
		idx := filepath.Join(work, "idx")
		os.RemoveAll(idx)
		cpu0 := cpuTime()
		ix, _, d, err := build(idx, dir)
		if err != nil {
			return err
		}
		cpu := cpuTime() - cpu0
		f, err := ix.Footprint()
		ix.Close()
		if err != nil {
			return err
		}
		pw, pc, _, text, err := plainLoad(work, dir)
		if err != nil {
			return err
		}
		walls, cpus = append(walls, d.Seconds()), append(cpus, cpu.Seconds())
		wr, cr = append(wr, d.Seconds()/pw.Seconds()), append(cr, cpu.Seconds()/max(pc.Seconds(), 1e-9))
		sizes = append(sizes, float64(f.Bytes)/float64(text))
		fmt.Printf("  round %d: cold index %s wall, %s CPU; plain FTS5 %s wall, %s CPU: %.2fx wall, %.2fx CPU; index %.2fx the text\n",
			i+1, ms(d), ms(cpu), ms(pw), ms(pc), wr[i], cr[i], sizes[i])
	}
	fmt.Printf("cold index of %d generated notes, median of %d rounds turn about with a plain FTS5 load: %.2f s wall, %.2f s CPU; %.2fx wall, %.2fx CPU; index %.2fx the text\n",
		n, rounds, median(walls), median(cpus), median(wr), median(cr), median(sizes))
	return nil
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}
