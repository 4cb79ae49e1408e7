// Command across measures a search across the desk's projects (scope
// projects): how well the right project's note comes first, against the
// ways of merging the projects' results it could have used instead, and
// what it costs against a search of one project in the same run.
//
// The desk: 50 projects. Fourteen are real memory: the three LoCoMo
// conversations of the dev split (each session a daily file, one line a
// turn with its dia_id), the Obsidian help vault in English and in Russian
// (a long-term wiki each), and the nine projects of the seventeen real
// Claude Code sessions of ../shared/fixtures/transcripts whose key facts
// ../shared/bench/distill-facts-dev.json lists (each session a daily file:
// the prompts, the replies, the tool calls). The other 36 are generated to
// the sizes of real projects (30–250 daily files, 10–80 wiki pages,
// Claude Code's auto-memory) from the word statistics of all that real
// text, so they hold the same words and compete for every query.
//
// The questions, each with its project: LoCoMo's (categories 1–4; one
// counts as found when a result of its conversation shows an evidence
// turn), each vault note's title (found: a result of that vault is the
// note), and each session fact's keywords (the first alternative of each
// of its groups; found: a result of that project shows every group). Every
// question is asked from its own project and from another one (a
// generated project), the case the scope is for: "did I solve this
// before, elsewhere?".
//
// The ways compared, over the same indexes: cerebro (every index scored
// with the whole desk's word statistics, pruned by the catalog's bounds;
// also run without pruning, and the two must agree), each project's own
// search merged by raw score (each index's own statistics), merged by
// each project's scores over its best, and merged by reciprocal rank
// fusion (1/(60+rank)); the project alone, as `--scope project` in it,
// is the ceiling.
//
// The cost: questions asked from a generated project of median size,
// `--scope project` against `--scope projects` over the 50 projects,
// turn about, p50 and p95 and their ratio; with how many projects each
// search opened, and what a first search costs with no catalog yet and
// after another project's memory changed.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/search"
)

func main() {
	shared := flag.String("shared", "../shared", "the shared folder: bench/ and fixtures/")
	total := flag.Int("projects", 50, "projects on the desk (the real ones and generated ones)")
	every := flag.Int("every", 2, "ask every n-th question of each set (1: all)")
	speedQ := flag.Int("speed-queries", 60, "questions timed both ways")
	wide := flag.Bool("wide", false, "generated projects draw from every word of the real text (the worst case), not from the common words and their own share of the rest")
	flag.StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the timed searches' second round to this file")
	flag.Parse()
	if err := run(*shared, *total, *every, *speedQ, *wide); err != nil {
		fmt.Fprintln(os.Stderr, "bench/across:", err)
		os.Exit(1)
	}
}

// proj is one project of the desk.
type proj struct {
	id, root string
	kind     string    // locomo, vault, sessions, generated
	now      time.Time // the day its questions are asked on
	qs       []question
	files    int
	idxs     []*search.Index // open for the per-project searches
}

// question is asked of the desk; found says whether a result of its
// project (its path in that project) answers it.
type question struct {
	text  string
	set   string
	found func(r search.Result, path string) bool
}

// cpuProfile is where -cpuprofile writes.
var cpuProfile string

func run(shared string, total, every, speedQ int, wide bool) error {
	work, err := os.MkdirTemp("", "cerebro-across-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	home := filepath.Join(work, "home")
	state := filepath.Join(work, "index")
	var desk []*proj
	var corpus []string // the real text, for the generated projects' words
	ps, text, err := locomoProjects(filepath.Join(shared, "bench", "locomo-dev.json"), filepath.Join(work, "p"))
	if err != nil {
		return err
	}
	desk, corpus = append(desk, ps...), append(corpus, text...)
	ps, text, err = vaultProjects(filepath.Join(shared, "fixtures", "vaults", "obsidianmd__obsidian-help"), filepath.Join(work, "p"))
	if err != nil {
		return err
	}
	desk, corpus = append(desk, ps...), append(corpus, text...)
	ps, text, err = sessionProjects(filepath.Join(shared, "bench", "distill-facts-dev.json"), filepath.Join(shared, "fixtures", "transcripts"), filepath.Join(work, "p"))
	if err != nil {
		return err
	}
	desk, corpus = append(desk, ps...), append(corpus, text...)
	real := len(desk)
	gens := generated(filepath.Join(work, "p"), home, max(0, total-real), corpus, wide)
	desk = append(desk, gens...)

	params := search.Params{ChunkTokens: config.Default().Search.ChunkTokens, OverlapTokens: config.Default().Search.OverlapTokens}
	t0 := time.Now()
	files, nq := 0, 0
	for _, p := range desk {
		for _, r := range rootsOf(p, home) {
			ix, err := search.Open(state, r, params)
			if err != nil {
				return err
			}
			st, err := ix.Update(context.Background(), time.Now(), nil)
			if err != nil {
				return err
			}
			files += st.Files
			p.files += st.Files
			p.idxs = append(p.idxs, ix)
		}
		nq += len(p.qs)
	}
	defer func() {
		for _, p := range desk {
			for _, ix := range p.idxs {
				ix.Close()
			}
		}
	}()
	words := fmt.Sprintf("the %d most frequent words of the real text and each about a %d-th of the others", commonWords, tailShare)
	if wide {
		words = "every word of the real text (-wide)"
	}
	fmt.Printf("desk: %d projects (%d real, %d generated from %s), %d memory files, indexed in %s; %d questions, every %d asked; GOMAXPROCS %d\n\n",
		len(desk), real, len(gens), words, files, time.Since(t0).Round(time.Millisecond), nq, every, runtime.GOMAXPROCS(0))

	// the generated project of median size asks the others' questions
	sort.SliceStable(gens, func(i, j int) bool { return gens[i].files < gens[j].files })
	asker := gens[len(gens)/2]
	if err := quality(desk, asker, home, state, params, every); err != nil {
		return err
	}
	return speed(desk, asker, home, state, params, speedQ)
}

func rootsOf(p *proj, home string) []search.Root {
	var out []search.Root
	for _, r := range search.Roots(p.root, "", home, search.ScopeProject) {
		if fi, err := os.Stat(r.Dir); err == nil && fi.IsDir() {
			out = append(out, r)
		}
	}
	return out
}

func options(now time.Time) search.Options {
	c := config.Default().Search
	return search.Options{
		Limit: 10, CandidatePool: c.CandidatePool, HalfLifeDays: c.HalfLifeDays, RecencyFloor: c.RecencyFloor,
		MMR: c.MMR, MMRLambda: c.MMRLambda, VectorWeight: c.VectorWeight, TextWeight: c.TextWeight,
		DateBoost: c.DateBoost, SnippetChars: c.SnippetChars, Now: now,
	}
}

// memory is the searchable memory of p as memhook builds it, with the
// others as its desk when across is set.
func memory(p *proj, desk []*proj, home, state string, params search.Params, now time.Time, across bool, budget time.Duration) *search.Memory {
	m := &search.Memory{Base: p.root, Roots: search.Roots(p.root, "", home, search.ScopeProject), IndexDir: state, Params: params,
		Options: options(now), UpdateBudget: 2 * time.Second}
	if across {
		d := &search.Desk{ID: p.id, Budget: budget}
		for _, o := range desk {
			if o != p {
				d.Others = append(d.Others, search.Project{ID: o.id, Name: o.id, Root: o.root,
					Roots: search.Roots(o.root, "", home, search.ScopeProject), Params: params})
			}
		}
		m.Desk = d
	}
	return m
}
