package main

import (
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// The baselines, over the same memory files of every project: BM25 over
// windows of 12 lines (a step of 6), and grep's count of query words per
// file, the newest file first on a tie.

type memFile struct {
	project string // its project's root
	path    string
	lines   []string
	mtime   int64
}

// memFiles lists every project's memory files: its short and long-term
// memory and Claude Code's auto-memory of it.
func memFiles(roots []string, home string) []memFile {
	var out []memFile
	for _, root := range roots {
		for _, d := range []string{filepath.Join(root, ".claude", "memory_short"), filepath.Join(root, ".claude", "memory_long"), search.AutoMemoryDir(home, root)} {
			filepath.WalkDir(d, func(p string, e os.DirEntry, err error) error {
				if err != nil || e.IsDir() || !strings.HasSuffix(p, ".md") {
					return nil
				}
				data, err := os.ReadFile(p)
				if err != nil {
					return nil
				}
				fi, _ := e.Info()
				out = append(out, memFile{project: root, path: p, lines: strings.Split(string(data), "\n"), mtime: fi.ModTime().UnixNano()})
				return nil
			})
		}
	}
	return out
}

type window struct {
	project string
	text    string
	tf      map[string]int
	n       int
}

type bm25 struct {
	wins  []window
	df    map[string]int
	avg   float64
	files []memFile
}

func newBM25(roots []string, home string) *bm25 {
	b := &bm25{df: map[string]int{}, files: memFiles(roots, home)}
	total := 0
	for _, f := range b.files {
		for s := 0; s < len(f.lines); s += 6 {
			e := min(len(f.lines), s+12)
			text := strings.Join(f.lines[s:e], "\n")
			w := window{project: f.project, text: text, tf: map[string]int{}}
			for _, st := range textan.Stems(text) {
				w.tf[st]++
				w.n++
			}
			for st := range w.tf {
				b.df[st]++
			}
			total += w.n
			b.wins = append(b.wins, w)
			if e == len(f.lines) {
				break
			}
		}
	}
	b.avg = float64(total) / math.Max(1, float64(len(b.wins)))
	return b
}

// rank is the place of the first window of the question's project that
// holds its answer among the first ten, 0 when none.
func (b *bm25) rank(q question) int {
	terms := textan.QueryTerms(q.text)
	type scored struct {
		i int
		s float64
	}
	var all []scored
	n := float64(len(b.wins))
	for i, w := range b.wins {
		var s float64
		for _, t := range terms {
			f := float64(w.tf[t])
			if f == 0 {
				continue
			}
			d := float64(b.df[t])
			idf := math.Log(1 + (n-d+0.5)/(d+0.5))
			s += idf * f * 2.2 / (f + 1.2*(0.25+0.75*float64(w.n)/b.avg))
		}
		if s > 0 {
			all = append(all, scored{i, s})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].s > all[j].s })
	for k := 0; k < len(all) && k < 10; k++ {
		w := b.wins[all[k].i]
		if w.project == q.project && q.holds(w.text) {
			return k + 1
		}
	}
	return 0
}

// grepRank is the place of the first file of the question's project
// that holds its answer, files ordered by how many of the question's
// words they hold (as grep -ilF of each word counts), the newest first
// on a tie; 0 when not among the first ten.
func grepRank(files []memFile, q question) int {
	var words []string
	for _, w := range textan.Words(q.text) {
		if !textan.IsStopWord(w) && len(w) > 2 {
			words = append(words, strings.ToLower(w))
		}
	}
	type scored struct {
		f memFile
		n int
	}
	var all []scored
	for _, f := range files {
		low := strings.ToLower(strings.Join(f.lines, "\n"))
		n := 0
		for _, w := range words {
			if strings.Contains(low, w) {
				n++
			}
		}
		if n > 0 {
			all = append(all, scored{f, n})
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].n != all[j].n {
			return all[i].n > all[j].n
		}
		return all[i].f.mtime > all[j].f.mtime
	})
	for k := 0; k < len(all) && k < 10; k++ {
		if all[k].f.project == q.project && q.holds(strings.Join(all[k].f.lines, "\n")) {
			return k + 1
		}
	}
	return 0
}
