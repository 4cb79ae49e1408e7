package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/search"
)

// rankOf is the 1-based rank of the first result answering q from p (0:
// none in the first ten).
func rankOf(rs []search.Result, p *proj, q question) int {
	for i, r := range rs {
		path := r.Path
		if r.Project != "" && r.Project != p.id {
			continue
		}
		path = strings.TrimPrefix(path, p.id+":")
		if q.found(r, path) {
			return i + 1
		}
	}
	return 0
}

type metrics struct{ ranks []int }

func (m *metrics) add(r int) { m.ranks = append(m.ranks, r) }

func (m *metrics) at(k int) float64 {
	n := 0
	for _, r := range m.ranks {
		if r > 0 && r <= k {
			n++
		}
	}
	return float64(n) / float64(max(1, len(m.ranks)))
}

func (m *metrics) mrr() float64 {
	var s float64
	for _, r := range m.ranks {
		if r > 0 {
			s += 1 / float64(r)
		}
	}
	return s / float64(max(1, len(m.ranks)))
}

func (m *metrics) cells() string {
	return fmt.Sprintf("%.3f / %.3f / %.3f", m.at(1), m.at(5), m.mrr())
}

// ways of merging the projects' own lists, beside cerebro's
const (
	wayRaw = iota
	wayTop
	wayRRF
	ways
)

var wayNames = [ways]string{"each project's own search, merged by score", "the same, each project's scores over its best", "the same, reciprocal rank fusion 1/(60+rank)"}

// merge ranks the projects' lists (first the asking project's) the way w
// says, ties going to the earlier list.
func merge(lists [][]search.Result, w int) []search.Result {
	type item struct {
		r         search.Result
		key       float64
		list, pos int
	}
	var all []item
	for li, l := range lists {
		for pos, r := range l {
			key := r.Score
			switch w {
			case wayTop:
				if l[0].Score > 0 {
					key = r.Score / l[0].Score
				}
			case wayRRF:
				key = 1 / float64(60+pos+1)
			}
			all = append(all, item{r, key, li, pos})
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].key != all[j].key {
			return all[i].key > all[j].key
		}
		if all[i].list != all[j].list {
			return all[i].list < all[j].list
		}
		return all[i].pos < all[j].pos
	})
	var out []search.Result
	for _, it := range all[:min(10, len(all))] {
		out = append(out, it.r)
	}
	return out
}

func quality(desk []*proj, asker *proj, home, state string, params search.Params, every int) error {
	ctx := context.Background()
	type row struct{ own, other metrics }
	sets := []string{"locomo", "title", "fact"}
	cerebro, exhaustive, alone := map[string]*row{}, map[string]*row{}, map[string]*metrics{}
	merged := [ways]map[string]*row{}
	for w := range merged {
		merged[w] = map[string]*row{}
	}
	for _, s := range append(sets, "all") {
		cerebro[s], exhaustive[s], alone[s] = &row{}, &row{}, &metrics{}
		for w := range merged {
			merged[w][s] = &row{}
		}
	}
	add := func(m map[string]*row, set string, own bool, r int) {
		for _, s := range []string{set, "all"} {
			if own {
				m[s].own.add(r)
			} else {
				m[s].other.add(r)
			}
		}
	}
	agree, asked, opened, late := 0, 0, 0, 0
	t0 := time.Now()
	for _, p := range desk {
		for qi, q := range p.qs {
			if qi%every != 0 {
				continue
			}
			asked++
			o := options(p.now)
			// each project's own search (its indexes, its statistics)
			lists := map[*proj][]search.Result{}
			for _, x := range desk {
				oo := o
				oo.Base = x.root
				resp, err := search.Search(ctx, x.idxs, q.text, oo)
				if err != nil {
					return err
				}
				for i := range resp.Results {
					resp.Results[i].Project = x.id
				}
				lists[x] = resp.Results
			}
			r := rankOf(lists[p], p, q)
			alone[q.set].add(r)
			alone["all"].add(r)
			for _, from := range []*proj{p, asker} {
				ordered := [][]search.Result{lists[from]}
				for _, x := range desk {
					if x != from {
						ordered = append(ordered, lists[x])
					}
				}
				for w := 0; w < ways; w++ {
					add(merged[w], q.set, from == p, rankOf(merge(ordered, w), p, q))
				}
				// quality measures the ranking, not the clock: a budget no
				// search reaches even on a loaded machine (speed keeps memhook's)
				m := memory(from, desk, home, state, params, p.now, true, time.Minute)
				resp, err := m.Query(ctx, q.text, 10, p.now, nil)
				if err != nil {
					return err
				}
				add(cerebro, q.set, from == p, rankOf(resp.Results, p, q))
				opened += resp.Across.Searched
				late += len(resp.Across.NotReached)
				if from == asker {
					m.Desk.Exhaustive = true
					ex, err := m.Query(ctx, q.text, 10, p.now, nil)
					if err != nil {
						return err
					}
					add(exhaustive, q.set, false, rankOf(ex.Results, p, q))
					if citations(ex.Results) == citations(resp.Results) {
						agree++
					}
				}
			}
		}
	}
	fmt.Printf("quality: %d questions in %s. R@1 / R@5 / MRR of the first result answering the question from its project, first ten results\n\n", asked, time.Since(t0).Round(time.Second))
	fmt.Printf("| way | asked from its own project | asked from another project | locomo (%d) from another | titles (%d) | session facts (%d) |\n| --- | --- | --- | --- | --- | --- |\n",
		len(cerebro["locomo"].other.ranks), len(cerebro["title"].other.ranks), len(cerebro["fact"].other.ranks))
	line := func(name string, r map[string]*row) {
		fmt.Printf("| %s | %s | %s | %s | %s | %s |\n", name, r["all"].own.cells(), r["all"].other.cells(), r["locomo"].other.cells(), r["title"].other.cells(), r["fact"].other.cells())
	}
	line("**cerebro: every index with the desk's statistics**", cerebro)
	for w := 0; w < ways; w++ {
		line(wayNames[w], merged[w])
	}
	fmt.Printf("| the project alone (`--scope project` in it): the ceiling | %s | — | %s | %s | %s |\n\n", alone["all"].cells(), alone["locomo"].cells(), alone["title"].cells(), alone["fact"].cells())
	fmt.Printf("pruning: the first ten results equal to searching every project for %d of %d questions asked from another project (R@1/R@5/MRR unpruned %s); %.1f of %d projects searched per question on average; %d projects not reached in time over all searches\n\n",
		agree, asked, exhaustive["all"].other.cells(), float64(opened)/float64(2*asked), len(desk), late)
	return nil
}

func citations(rs []search.Result) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "%s %.4f\n", r.Citation, r.Score)
	}
	return b.String()
}
