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
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

func main() {
	shared := flag.String("shared", "../shared", "the shared folder: bench/ and fixtures/")
	total := flag.Int("projects", 50, "projects on the desk (the real ones and generated ones)")
	every := flag.Int("every", 2, "ask every n-th question of each set (1: all)")
	speedQ := flag.Int("speed-queries", 60, "questions timed both ways")
	wide := flag.Bool("wide", false, "generated projects draw from every word of the real text (the worst case), not from the common words and their own share of the rest")
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
	searched, ruled, late, idxs := 0, 0, 0, 0
	for round := 0; round < 2; round++ { // the first round warms the page cache

		single, multi = nil, nil
		searched, ruled, late, idxs = 0, 0, 0, 0
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
		}
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
	fmt.Printf("per search across projects: %.1f projects searched (%.1f of the other projects' %d indexes), %.1f ruled out by their bounds, %.2f not reached in time (of %d)\n",
		float64(searched)/float64(len(qs)), float64(idxs)/float64(len(qs)), countIdx(desk)-len(asker.idxs), float64(ruled)/float64(len(qs)), float64(late)/float64(len(qs)), len(desk))
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

// --- the real projects

type turn struct {
	Speaker     string `json:"speaker"`
	DiaID       string `json:"dia_id"`
	Text        string `json:"text"`
	BlipCaption string `json:"blip_caption"`
}

type sample struct {
	ID           string                     `json:"sample_id"`
	Conversation map[string]json.RawMessage `json:"conversation"`
	QA           []struct {
		Question string   `json:"question"`
		Evidence []string `json:"evidence"`
		Category int      `json:"category"`
	} `json:"qa"`
}

// locomoProjects writes each LoCoMo conversation as a project's daily
// files, as bench/search/locomo does.
func locomoProjects(path, dir string) ([]*proj, []string, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w (see ../shared/bench/README.md)", path, err)
	}
	var samples []sample
	if err := json.Unmarshal(raw, &samples); err != nil {
		return nil, nil, fmt.Errorf("parse %s: %w", path, err)
	}
	var out []*proj
	var text []string
	for _, s := range samples {
		root := filepath.Join(dir, s.ID)
		p := &proj{id: project.ID(root), root: root, kind: "locomo"}
		daily := filepath.Join(root, ".claude", "memory_short", "daily")
		os.MkdirAll(daily, 0o755)
		for n := 1; ; n++ {
			key := "session_" + strconv.Itoa(n)
			rawTurns, ok := s.Conversation[key]
			if !ok {
				break
			}
			var when string
			json.Unmarshal(s.Conversation[key+"_date_time"], &when)
			t, err := sessionTime(when)
			if err != nil {
				return nil, nil, fmt.Errorf("%s %s: %w", s.ID, key, err)
			}
			if t.After(p.now) {
				p.now = t
			}
			var turns []turn
			json.Unmarshal(rawTurns, &turns)
			day := t.Format("2006-01-02")
			var b strings.Builder
			fmt.Fprintf(&b, "# %s\n\n## %s · session %d · manual\n\n", day, t.Format("15:04"), n)
			for _, tr := range turns {
				line := strings.ReplaceAll(tr.Text, "\n", " ")
				if tr.BlipCaption != "" {
					line += " [shared an image: " + tr.BlipCaption + "]"
				}
				fmt.Fprintf(&b, "- [%s] %s: %s\n", tr.DiaID, tr.Speaker, line)
				text = append(text, line)
			}
			name := day + ".md"
			if _, err := os.Stat(filepath.Join(daily, name)); err == nil {
				name = fmt.Sprintf("%s session %d.md", day, n)
			}
			if err := os.WriteFile(filepath.Join(daily, name), []byte(b.String()), 0o644); err != nil {
				return nil, nil, err
			}
		}
		p.now = p.now.AddDate(0, 0, 1)
		for _, q := range s.QA {
			if q.Category < 1 || q.Category > 4 {
				continue
			}
			var ids []string
			for _, e := range q.Evidence {
				for _, id := range strings.FieldsFunc(e, func(r rune) bool { return r == ';' || r == ',' || r == ' ' }) {
					ids = append(ids, "["+id+"]")
				}
			}
			p.qs = append(p.qs, question{text: q.Question, set: "locomo", found: func(r search.Result, _ string) bool {
				for _, id := range ids {
					if strings.Contains(r.Snippet, id) {
						return true
					}
				}
				return false
			}})
		}
		out = append(out, p)
	}
	return out, text, nil
}

var dateRe = func() func(string) []string {
	months := map[string]string{"January": "01", "February": "02", "March": "03", "April": "04", "May": "05", "June": "06",
		"July": "07", "August": "08", "September": "09", "October": "10", "November": "11", "December": "12"}
	return func(s string) []string {
		// "1:56 pm on 8 May, 2023"
		f := strings.Fields(strings.ReplaceAll(s, ",", ""))
		if len(f) != 6 {
			return nil
		}
		return []string{f[0], f[1], f[3], months[f[4]], f[5]}
	}
}()

func sessionTime(s string) (time.Time, error) {
	f := dateRe(s)
	if f == nil || f[3] == "" {
		return time.Time{}, fmt.Errorf("unreadable session time %q", s)
	}
	hm := strings.Split(f[0], ":")
	h, _ := strconv.Atoi(hm[0])
	mi, _ := strconv.Atoi(hm[1])
	if f[1] == "pm" && h != 12 {
		h += 12
	}
	if f[1] == "am" && h == 12 {
		h = 0
	}
	d, _ := strconv.Atoi(f[2])
	mo, _ := strconv.Atoi(f[3])
	y, _ := strconv.Atoi(f[4])
	return time.Date(y, time.Month(mo), d, h, mi, 0, 0, time.UTC), nil
}

// vaultProjects makes the English and the Russian Obsidian help vaults
// two projects' wikis; each note's title is a question of its vault.
func vaultProjects(vaults, dir string) ([]*proj, []string, error) {
	var out []*proj
	var text []string
	for _, lang := range []string{"en", "ru"} {
		src := filepath.Join(vaults, lang)
		if _, err := os.Stat(src); err != nil {
			return nil, nil, fmt.Errorf("vault %s: %w", src, err)
		}
		root := filepath.Join(dir, "obsidian-help-"+lang)
		p := &proj{id: project.ID(root), root: root, kind: "vault", now: time.Now()}
		dst := filepath.Join(root, ".claude", "memory_long")
		err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
				return err
			}
			rel, _ := filepath.Rel(src, path)
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o755)
			if err := os.WriteFile(filepath.Join(dst, rel), data, 0o644); err != nil {
				return err
			}
			text = append(text, strings.Split(string(data), "\n")...)
			name := filepath.Base(rel)
			p.qs = append(p.qs, question{text: strings.TrimSuffix(name, ".md"), set: "title", found: func(_ search.Result, path string) bool {
				return filepath.Base(path) == name
			}})
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		sort.Slice(p.qs, func(i, j int) bool { return p.qs[i].text < p.qs[j].text })
		out = append(out, p)
	}
	return out, text, nil
}

// sessionProjects writes the real Claude Code sessions whose facts the
// distill benchmark lists as their projects' daily files: a section per
// session with the prompts, the replies and the tool calls.
func sessionProjects(factsPath, transcripts, dir string) ([]*proj, []string, error) {
	raw, err := os.ReadFile(factsPath)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", factsPath, err)
	}
	var facts struct {
		Transcripts []struct {
			File  string `json:"file"`
			Facts []struct {
				AnyOf [][]string `json:"any_of"`
			} `json:"facts"`
		} `json:"transcripts"`
	}
	if err := json.Unmarshal(raw, &facts); err != nil {
		return nil, nil, fmt.Errorf("parse %s: %w", factsPath, err)
	}
	byName := map[string]*proj{}
	var out []*proj
	var text []string
	for i, tr := range facts.Transcripts {
		name := sessionProject(tr.File)
		p := byName[name]
		if p == nil {
			root := filepath.Join(dir, name)
			p = &proj{id: project.ID(root), root: root, kind: "sessions"}
			byName[name] = p
			out = append(out, p)
		}
		path := filepath.Join(transcripts, tr.File)
		items, _, err := transcript.Read(path, 0, 0)
		if err != nil {
			return nil, nil, err
		}
		if len(items) == 0 {
			if l, _, err := transcript.ReadSidechainLog(path, 0, 0); err == nil {
				items = l.Items
			}
		}
		day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i)
		if len(items) > 0 && !items[0].Time.IsZero() {
			day = items[0].Time.UTC()
		}
		if day.After(p.now) {
			p.now = day.AddDate(0, 0, 1)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\n## %s · session %d · bench\n\n", day.Format("2006-01-02"), day.Format("15:04"), i)
		for _, it := range items {
			for _, l := range strings.Split(strings.TrimSpace(it.Text), "\n") {
				if l = strings.TrimSpace(l); l != "" {
					fmt.Fprintf(&b, "- %s: %s\n", it.Role, l)
					text = append(text, l)
				}
			}
			for _, t := range it.Tools {
				fmt.Fprintf(&b, "- tool %s: %s\n", t.Name, t.Target)
			}
		}
		daily := filepath.Join(p.root, ".claude", "memory_short", "daily")
		os.MkdirAll(daily, 0o755)
		file := filepath.Join(daily, day.Format("2006-01-02")+".md")
		if _, err := os.Stat(file); err == nil {
			file = filepath.Join(daily, fmt.Sprintf("%s session %d.md", day.Format("2006-01-02"), i))
		}
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			return nil, nil, err
		}
		for _, f := range tr.Facts {
			var words []string
			groups := f.AnyOf
			for _, g := range groups {
				if len(g) > 0 {
					words = append(words, g[0])
				}
			}
			p.qs = append(p.qs, question{text: strings.Join(words, " "), set: "fact", found: func(r search.Result, _ string) bool {
				low := strings.Join(strings.Fields(strings.ToLower(r.Snippet)), " ")
				for _, g := range groups {
					hit := false
					for _, alt := range g {
						if strings.Contains(low, strings.ToLower(alt)) {
							hit = true
							break
						}
					}
					if !hit {
						return false
					}
				}
				return true
			}})
		}
	}
	return out, text, nil
}

// sessionProject names a transcript's project from its file name:
// owner__repo__real_projects__<project>__<session> (the project folder),
// owner__repo__<folder>__<session> (the repository), else its first part.
func sessionProject(file string) string {
	parts := strings.Split(strings.TrimSuffix(file, ".jsonl"), "__")
	switch {
	case len(parts) >= 5 && parts[2] == "real_projects":
		return strings.TrimLeft(parts[3], "-")
	case len(parts) >= 3:
		return parts[1]
	}
	return parts[0]
}

// --- the generated projects

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
