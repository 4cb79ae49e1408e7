package main

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// The generated projects: real projects' sizes, the real text's words.

// vocab draws words with the frequencies of the real text.
type vocab struct {
	words []string
	cum   []int
}

// vocabs are the generated projects' words: the commonWords most frequent
// words of the real text are every project's, and each project holds a
// share of the others (each word in about one project in tailShare), as
// real projects share a language and differ in their own terms. With
// wide, every project draws from every word: the worst case, where any
// query's words are in every project.
func vocabs(lines []string, n int, wide bool, r *rand.Rand) []*vocab {
	counts := map[string]int{}
	for _, l := range lines {
		for _, w := range textan.Words(l) {
			counts[w]++
		}
	}
	var all []string
	for w := range counts {
		all = append(all, w)
	}
	sort.Slice(all, func(i, j int) bool {
		if counts[all[i]] != counts[all[j]] {
			return counts[all[i]] > counts[all[j]]
		}
		return all[i] < all[j]
	})
	out := make([]*vocab, n)
	for i := range out {
		v := &vocab{}
		total := 0
		for k, w := range all {
			if !wide && k >= commonWords && r.Intn(tailShare) != 0 {
				continue
			}
			total += counts[w]
			v.words, v.cum = append(v.words, w), append(v.cum, total)
		}
		out[i] = v
	}
	return out
}

const (
	commonWords = 1500
	tailShare   = 10
)

func (v *vocab) text(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			if i%14 == 0 {
				b.WriteString(".\n- ")
			} else {
				b.WriteByte(' ')
			}
		}
		x := r.Intn(v.cum[len(v.cum)-1])
		b.WriteString(v.words[sort.SearchInts(v.cum, x+1)])
	}
	return b.String() + ".\n"
}

// generated writes n projects of real projects' sizes: 30–250 daily
// files of one to three sessions, 10–80 wiki pages in a few folders, and
// a Claude Code auto-memory folder. The seed is fixed.
func generated(dir, home string, n int, corpus []string, wide bool) []*proj {
	r := rand.New(rand.NewSource(5))
	vs := vocabs(corpus, n, wide, r)
	start := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	var out []*proj
	for i := 0; i < n; i++ {
		root := filepath.Join(dir, fmt.Sprintf("service-%02d", i))
		p := &proj{id: project.ID(root), root: root, kind: "generated", now: time.Now()}
		v := vs[i]
		days := 30 + r.Intn(221)
		first := start.AddDate(0, 0, r.Intn(200))
		for d := 0; d < days; d++ {
			day := first.AddDate(0, 0, d+d/2)
			var b strings.Builder
			fmt.Fprintf(&b, "# %s\n", day.Format("2006-01-02"))
			for s := 0; s < 1+r.Intn(3); s++ {
				fmt.Fprintf(&b, "\n## %02d:%02d · session %08x · auto\n### Done\n- %s", 9+s*3, r.Intn(60), r.Uint32(), v.text(r, 60+r.Intn(200)))
			}
			path := filepath.Join(root, ".claude", "memory_short", "daily", day.Format("2006-01-02")+".md")
			os.MkdirAll(filepath.Dir(path), 0o755)
			os.WriteFile(path, []byte(b.String()), 0o644)
		}
		for w := 0; w < 10+r.Intn(71); w++ {
			path := filepath.Join(root, ".claude", "memory_long", fmt.Sprintf("area%d", w%4), fmt.Sprintf("page-%03d.md", w))
			os.MkdirAll(filepath.Dir(path), 0o755)
			os.WriteFile(path, []byte(fmt.Sprintf("# %s\n\n- %s", strings.TrimSuffix(v.text(r, 3), ".\n"), v.text(r, 120+r.Intn(500)))), 0o644)
		}
		core := filepath.Join(root, ".claude", "memory_long", "CORE.md")
		os.WriteFile(core, []byte("# Core\n\n- "+v.text(r, 80)), 0o644)
		auto := search.AutoMemoryDir(home, root)
		os.MkdirAll(auto, 0o755)
		os.WriteFile(filepath.Join(auto, "MEMORY.md"), []byte("# Memory\n\n- "+v.text(r, 60+r.Intn(120))), 0o644)
		out = append(out, p)
	}
	return out
}
