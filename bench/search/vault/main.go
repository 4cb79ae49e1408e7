// Command vault measures memory search at vault scale: it indexes the real
// Obsidian help vaults (English and Russian, ../shared/fixtures/vaults)
// and a generated 7,000-note vault, and prints index throughput, the cost
// of an incremental reindex after touching 10 notes, query latency
// (against a grep-style scan of the same files, in the same run), and
// whether Russian queries in one inflected form find the others.
package main

import (
	"context"
	"encoding/base64"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/text/textan"

	"github.com/cerebro-mem/cerebro/internal/search"
)

func main() {
	vaults := flag.String("vaults", "../shared/fixtures/vaults/obsidianmd__obsidian-help", "folder holding en/ and ru/")
	notes := flag.Int("notes", 7000, "notes in the generated vault")
	flag.StringVar(&memhook, "memhook", "", "a built memhook binary: measure the CLI against grep -rilF")
	flag.StringVar(&extra, "cli-vault", "", "another folder of notes to measure the CLI against grep on")
	write := flag.String("write", "", "only write the generated vault into this folder, and exit (bench/mcp uses it)")
	flag.StringVar(&keep, "keep", "", "write the generated vaults and indexes here and keep them (default: a temporary folder)")
	flag.Parse()
	if *write != "" {
		if _, _, err := writeGenerated(*write, *notes, vocabulary(*vaults)); err != nil {
			fmt.Fprintln(os.Stderr, "vault:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*vaults, *notes); err != nil {
		fmt.Fprintln(os.Stderr, "vault:", err)
		os.Exit(1)
	}
}

var memhook, extra, keep string

// lastCPU is the CPU time of the last process runOne ran: under load,
// wall time says more about the machine than about the program.
var lastCPU time.Duration

func opts() search.Options {
	return search.Options{Limit: 10, CandidatePool: 50, HalfLifeDays: 30, MMR: true, MMRLambda: 0.7, VectorWeight: 0.7, TextWeight: 0.3, Now: time.Now()}
}

func run(vaults string, n int) error {
	work := keep
	if work == "" {
		tmp, err := os.MkdirTemp("", "cerebro-vault-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		work = tmp
	} else if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	for _, lang := range []string{"en", "ru"} {
		dir := filepath.Join(vaults, lang)
		if _, err := os.Stat(dir); err != nil {
			fmt.Printf("real vault %s: absent, skipped\n", lang)
			continue
		}
		ix, st, d, err := build(filepath.Join(work, "idx-"+lang), dir)
		if err != nil {
			return err
		}
		mb := dirMB(dir)
		fmt.Printf("real vault %s: %d notes, %.1f MB indexed in %s (%.0f notes/s, %.1f MB/s)\n", lang, st.Files, mb, ms(d), float64(st.Files)/d.Seconds(), mb/d.Seconds())
		if err := footprint(ix, st, dir); err != nil {
			return err
		}
		// each note's title as a query: is the note in the top 5?
		var lat []time.Duration
		hit := 0
		files := mdFiles(dir)
		for _, f := range files {
			q := strings.TrimSuffix(filepath.Base(f), ".md")
			t0 := time.Now()
			r, err := search.Search(context.Background(), []*search.Index{ix}, q, opts())
			lat = append(lat, time.Since(t0))
			if err != nil {
				return err
			}
			for _, res := range r.Results[:min(5, len(r.Results))] {
				if filepath.Base(res.Path) == filepath.Base(f) {
					hit++
					break
				}
			}
		}
		fmt.Printf("  title queries: note in top 5 for %d/%d (%.2f); query p50 %s p95 %s\n", hit, len(files), float64(hit)/float64(len(files)), ms(pct(lat, 0.5)), ms(pct(lat, 0.95)))
		if lang == "ru" {
			// the same titles with their Russian words in another case
			ihit, asked, crowded := 0, 0, 0
			for _, f := range files {
				title := strings.TrimSuffix(filepath.Base(f), ".md")
				q := inflect(title)
				if q == strings.ToLower(title) {
					continue
				}
				asked++
				r, err := search.Search(context.Background(), []*search.Index{ix}, q, opts())
				if err != nil {
					return err
				}
				top := r.Results[:min(5, len(r.Results))]
				for _, res := range top {
					if filepath.Base(res.Path) == filepath.Base(f) {
						ihit++
						break
					}
				}
				if maxPerFile(top, filepath.Base(f)) > 2 {
					crowded++
				}
			}
			fmt.Printf("  title queries with inflected words («Воскресная уборка» → «воскресной уборке»): note in top 5 for %d/%d (%.2f); queries where another file holds more than 2 of the top 5: %d (the note a query names may)\n", ihit, asked, float64(ihit)/float64(max(asked, 1)), crowded)
		}
		if lang == "ru" {
			if err := russian(ix); err != nil {
				return err
			}
		}
		ix.Close()
	}
	v := vocabulary(vaults)
	if err := realShaped(work, v); err != nil {
		return err
	}
	return generated(work, n, v)
}

// footprint prints what an index holds against the text it was built
// from: its size, the ratio to the notes' bytes without what hygiene left
// out, the chunks still holding embedded data (should be none) and what
// was left out.
func footprint(ix *search.Index, st search.UpdateStats, dir string) error {
	f, err := ix.Footprint()
	if err != nil {
		return err
	}
	text := int64(dirMB(dir)*(1<<20)) - st.Hygiene.BlobBytes
	fmt.Printf("  index %.1f MB = %.2fx the %.1f MB of text indexed (budget 3x); %d chunks, %d holding base64 or a data: URI; left out: %d embedded data runs or minified lines (%.1f MB), %d binary files\n",
		float64(f.Bytes)/(1<<20), float64(f.Bytes)/float64(max(text, 1)), float64(text)/(1<<20), f.Chunks, f.BlobChunks,
		st.Hygiene.Blobs, float64(st.Hygiene.BlobBytes)/(1<<20), st.Hygiene.BinaryFiles)
	return nil
}

// realShaped builds a vault shaped like a person's real one, as the
// issue's 1,394-note vault was: long notes (a tenth of them 500–2,000
// lines), YAML frontmatter (some of it long), wiki links and embeds,
// pasted images as base64 data: URIs (one note in eight, 20–400 KB),
// clipped pages with minified script lines, a few binary attachments
// saved as .md. It is indexed in process and by a cold `memhook index`,
// and a first `memhook search` on it before any index says how much it
// had not yet read.
func realShaped(work string, v *vocab) error {
	dir := filepath.Join(work, "real-shaped")
	r := rand.New(rand.NewSource(11))
	const notes = 1400
	img := make([]byte, 400<<10)
	r.Read(img)
	b64 := base64.StdEncoding.EncodeToString(img)
	js := strings.Repeat(`!function(e,t){"use strict";var n=e.document,r=t(n);return r.map(function(i){return i*2})}(window,jQuery);`, 40)
	var qs []string
	for i := 0; i < notes; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "---\ntitle: Note %d\naliases: [n%d]\ntags: [%s, %s]\ncreated: 2024-%02d-%02dT10:00:00\n", i, i, v.word(r), v.word(r), 1+i%12, 1+i%28)
		if i%5 == 0 {
			for k := 0; k < 20; k++ {
				fmt.Fprintf(&b, "field%d: %s\n", k, v.text(r, 6)[:20])
			}
		}
		b.WriteString("---\n\n")
		lines := 20 + r.Intn(120)
		if i%10 == 0 {
			lines = 500 + r.Intn(1500)
		}
		for l := 0; l < lines; l++ {
			switch {
			case l%40 == 0:
				fmt.Fprintf(&b, "## %s\n", strings.TrimSuffix(v.text(r, 3), ".\n"))
			case l%17 == 0:
				fmt.Fprintf(&b, "![[image-%d.png]] see [[Note %d]]\n", r.Intn(notes), r.Intn(notes))
			default:
				b.WriteString(v.text(r, 6+r.Intn(14)))
			}
		}
		if i%8 == 0 {
			n := (20 + r.Intn(380)) << 10 * 4 / 3
			fmt.Fprintf(&b, "\n![pasted](data:image/png;base64,%s)\n", b64[:min(n, len(b64))])
		}
		if i%50 == 0 {
			fmt.Fprintf(&b, "\n<script>%s</script>\n", js)
		}
		p := filepath.Join(dir, fmt.Sprintf("folder%02d", i%30), fmt.Sprintf("Note %d.md", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			return err
		}
		if i%70 == 0 {
			qs = append(qs, v.query[r.Intn(len(v.query))]+" "+v.query[r.Intn(len(v.query))])
		}
	}
	for i := 0; i < 5; i++ {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("attachment %d.md", i)), append([]byte("\x89PNG\r\n\x1a\n\x00\x00"), img[:50<<10]...), 0o644)
	}
	mb := dirMB(dir)
	ix, st, d, err := build(filepath.Join(work, "idx-real-shaped"), dir)
	if err != nil {
		return err
	}
	defer ix.Close()
	fmt.Printf("\nreal-shaped generated vault: %d notes, %.1f MB (long notes, frontmatter, embeds, pasted images, minified scripts, binary attachments) indexed in %s (budget 5 s)\n", st.Files, mb, ms(d))
	if err := footprint(ix, st, dir); err != nil {
		return err
	}
	for _, q := range []string{"iVBORw0KGgo", b64[1000:1040], "function window jQuery"} {
		res, err := search.Search(context.Background(), []*search.Index{ix}, q, opts())
		if err != nil {
			return err
		}
		fmt.Printf("  query %.24q (embedded data): %d results\n", q, len(res.Results))
	}
	if memhook == "" {
		return nil
	}
	return firstSearchAndCold(work, dir, qs)
}

// firstSearchAndCold runs `memhook search` on the real-shaped vault
// before any index (it indexes what it can within search.update_budget_ms
// and says how much is left), then a cold `memhook index`.
func firstSearchAndCold(work, dir string, qs []string) error {
	state, err := os.MkdirTemp(work, "state-")
	if err != nil {
		return err
	}
	env := append(os.Environ(), "CEREBRO_STATE_DIR="+state, "CEREBRO_HOME="+filepath.Join(state, "desk"), "HOME="+state)
	cmd := exec.Command(memhook, append([]string{"search", "--root", dir}, strings.Fields(qs[0])...)...)
	cmd.Env, cmd.Dir = env, state
	var errb strings.Builder
	cmd.Stderr = &errb
	t0 := time.Now()
	out, err := cmd.Output()
	first := time.Since(t0)
	if err != nil {
		return fmt.Errorf("first search: %w\n%s", err, errb.String())
	}
	note := strings.TrimSpace(errb.String())
	fmt.Printf("  first memhook search before any index: %s (budget 1 s), %d result lines; it says: %s\n", ms(first), strings.Count(string(out), "\n"), note)
	os.RemoveAll(state)
	os.MkdirAll(state, 0o755)
	cmd = exec.Command(memhook, "index", "--root", dir)
	cmd.Env, cmd.Dir = env, state
	t0 = time.Now()
	out, err = cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("cold index: %w\n%s", err, out)
	}
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	fmt.Printf("  memhook index from nothing (a process): %s wall, %s CPU (budget 5 s): %s", ms(time.Since(t0)), ms(cpu), out)
	return nil
}

// maxPerFile is the most results one file holds, but for the file
// named except (a query naming a file may get more of it).
func maxPerFile(rs []search.Result, except string) int {
	n, top := map[string]int{}, 0
	for _, r := range rs {
		if except != "" && filepath.Base(r.Path) == except {
			continue
		}
		n[r.Path]++
		top = max(top, n[r.Path])
	}
	return top
}

// inflect puts each Russian word of a title in another case by its
// ending (nominative to genitive, dative or prepositional, as a question
// about the note would): «Воскресная уборка» → «воскресной уборке»,
// «Горячие клавиши» → «горячих клавишах». Other words stay.
func inflect(title string) string {
	rules := []struct{ from, to string }{
		{"ая", "ой"}, {"яя", "ей"}, {"ый", "ого"}, {"ий", "его"}, {"ой", "ого"}, {"ое", "ого"}, {"ее", "его"},
		{"ые", "ых"}, {"ие", "их"}, {"ия", "ии"}, {"ка", "ке"}, {"ки", "ках"}, {"а", "е"}, {"я", "и"},
		{"ь", "и"}, {"ы", "ах"}, {"и", "ях"}, {"о", "а"}, {"е", "я"},
	}
	words := textan.Words(title)
	for i, w := range words {
		if len([]rune(w)) < 4 || !isCyrillic(w) {
			continue
		}
		done := false
		for _, r := range rules {
			if strings.HasSuffix(w, r.from) {
				words[i] = strings.TrimSuffix(w, r.from) + r.to
				done = true
				break
			}
		}
		if !done {
			words[i] = w + "ом" // a consonant ending: instrumental
		}
	}
	return strings.Join(words, " ")
}

func isCyrillic(w string) bool {
	for _, r := range w {
		if r < 'а' || r > 'я' {
			return false
		}
	}
	return true
}

// russian runs queries in a form the vault (almost) never uses and counts
// the snippets holding other forms of the same word.
func russian(ix *search.Index) error {
	cases := []struct{ query, stem string }{
		{"синхронизациями", "синхронизац"}, {"плагинах", "плагин"}, {"хранилищам", "хранилищ"},
		{"заметкам", "заметк"}, {"вкладками", "вкладк"}, {"шаблонов", "шаблон"},
		{"ссылками", "ссылк"}, {"настройкам", "настройк"}, {"папках", "папк"}, {"закладками", "закладк"},
	}
	found := 0
	for _, c := range cases {
		r, err := search.Search(context.Background(), []*search.Index{ix}, c.query, opts())
		if err != nil {
			return err
		}
		other, exact := 0, 0
		for _, res := range r.Results {
			low := strings.ToLower(res.Snippet)
			if strings.Contains(low, c.query) {
				exact++
			}
			if strings.Contains(low, c.stem) {
				other++
			}
		}
		if len(r.Results) > 0 && other == len(r.Results) {
			found++
		}
		fmt.Printf("  ru %-17q %2d results, %2d with a form of %q, %2d with the exact form\n", c.query, len(r.Results), other, c.stem, exact)
	}
	fmt.Printf("  ru inflected queries answered with inflected hits: %d/%d\n", found, len(cases))
	return nil
}

func build(idxDir, dir string) (*search.Index, search.UpdateStats, time.Duration, error) {
	t0 := time.Now()
	ix, err := search.Open(idxDir, search.Root{Dir: dir, Kind: search.KindOrg}, search.Params{ChunkTokens: 400, OverlapTokens: 80})
	if err != nil {
		return nil, search.UpdateStats{}, 0, err
	}
	st, err := ix.Update(context.Background(), time.Now(), nil)
	return ix, st, time.Since(t0), err
}

// vocab is a unigram model: words with their counts, so generated notes
// have the word statistics of real notes (a few very common words, a long
// tail of rare ones) rather than a uniform mix that makes every word
// common.
type vocab struct {
	words []string
	cum   []int // cumulative counts
	query []string
}

// vocabulary counts the words of the real vaults (English and Russian);
// without them it falls back to a small built-in list.
func vocabulary(vaults string) *vocab {
	counts := map[string]int{}
	for _, f := range mdFiles(vaults) {
		data, _ := os.ReadFile(f)
		for _, w := range textan.Words(string(data)) {
			counts[w]++
		}
	}
	if len(counts) == 0 {
		for i, w := range strings.Fields("deploy kafka retention cluster migration postgres schema index query latency budget invoice customer release rollback проект сервера базы данных миграции релиза отчёта встречи решения задачи бюджета клиента команды") {
			counts[w] = 1 + i%5
		}
	}
	v := &vocab{}
	for w := range counts {
		v.words = append(v.words, w)
	}
	sort.Strings(v.words)
	total := 0
	for _, w := range v.words {
		total += counts[w]
		v.cum = append(v.cum, total)
		if counts[w] >= 3 && len([]rune(w)) >= 4 && !textan.IsStopWord(w) {
			v.query = append(v.query, w)
		}
	}
	return v
}

func (v *vocab) word(r *rand.Rand) string {
	x := r.Intn(v.cum[len(v.cum)-1])
	return v.words[sort.SearchInts(v.cum, x+1)]
}

func (v *vocab) text(r *rand.Rand, words int) string {
	var b strings.Builder
	for i := 0; i < words; i++ {
		if i > 0 {
			if i%12 == 0 {
				b.WriteString(".\n")
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(v.word(r))
	}
	return b.String() + ".\n"
}

// writeGenerated writes n notes drawn from v's word statistics into dir:
// every third a daily file, the others in 40 area folders, each linking
// another. The seed is fixed, so every run writes the same vault; the
// generator is returned for what is drawn after it.
func writeGenerated(dir string, n int, v *vocab) ([]string, *rand.Rand, error) {
	r := rand.New(rand.NewSource(7))
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var files []string
	for i := 0; i < n; i++ {
		var name string
		if i%3 == 0 {
			name = filepath.Join("daily", start.AddDate(0, 0, i/3).Format("2006-01-02")+".md")
		} else {
			name = filepath.Join(fmt.Sprintf("area%02d", i%40), fmt.Sprintf("note-%05d.md", i))
		}
		body := fmt.Sprintf("---\ntype: note\ntags: [gen]\n---\n\n# Note %d\n\nSee [[note-%05d]].\n\n%s", i, r.Intn(n), v.text(r, 80+r.Intn(300)))
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return nil, nil, err
		}
		files = append(files, p)
	}
	return files, r, nil
}

func generated(work string, n int, v *vocab) error {
	dir := filepath.Join(work, "gen")
	files, r, err := writeGenerated(dir, n, v)
	if err != nil {
		return err
	}
	mb := dirMB(dir)
	ix, st, d, err := build(filepath.Join(work, "idx-gen"), dir)
	if err != nil {
		return err
	}
	defer ix.Close()
	_, chunks, _ := ix.Stats()
	fmt.Printf("\ngenerated vault (word statistics of the real vaults, %d distinct words): %d notes, %.1f MB, %d chunks indexed in %s (%.0f notes/s, %.1f MB/s)\n", len(v.words), st.Files, mb, chunks, ms(d), float64(st.Files)/d.Seconds(), mb/d.Seconds())

	t0 := time.Now()
	st, err = ix.Update(context.Background(), time.Now(), nil)
	if err != nil {
		return err
	}
	noop := time.Since(t0)
	later := time.Now().Add(time.Minute)
	for i := 0; i < 10; i++ {
		p := files[r.Intn(len(files))]
		f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString("Appended: " + v.text(r, 20))
		f.Close()
		os.Chtimes(p, later, later)
	}
	t0 = time.Now()
	st, err = ix.Update(context.Background(), time.Now(), nil)
	if err != nil {
		return err
	}
	incr := time.Since(t0)
	fmt.Printf("  reindex, nothing changed: %s; after touching 10 notes: %s (%d re-read) = %.1f%% of the full index time\n", ms(noop), ms(incr), st.Indexed, 100*incr.Seconds()/d.Seconds())

	var qs []string
	for i := 0; i < 200; i++ {
		k := 1 + r.Intn(3)
		var q []string
		for j := 0; j < k; j++ {
			q = append(q, v.query[r.Intn(len(v.query))])
		}
		qs = append(qs, strings.Join(q, " "))
	}
	var lat, fresh, grep []time.Duration
	for _, q := range qs {
		t0 := time.Now()
		if _, err := search.Search(context.Background(), []*search.Index{ix}, q, opts()); err != nil {
			return err
		}
		lat = append(lat, time.Since(t0))
	}
	// the same queries naming a day or range, and the dates alone (which
	// list the files of those days); the dailies run from 2025 to 2031
	dates := []string{"yesterday", "last week", "on 13 October 2025", "в прошлом месяце", "in March 2026", "на прошлой неделе", "3 days ago"}
	od := opts()
	od.Now = time.Date(2026, 6, 15, 12, 0, 0, 0, time.UTC)
	var dated, alone []time.Duration
	for i, q := range qs {
		t0 := time.Now()
		if _, err := search.Search(context.Background(), []*search.Index{ix}, q+" "+dates[i%len(dates)], od); err != nil {
			return err
		}
		dated = append(dated, time.Since(t0))
	}
	for i := 0; i < 10*len(dates); i++ {
		t0 := time.Now()
		if _, err := search.Search(context.Background(), []*search.Index{ix}, dates[i%len(dates)], od); err != nil {
			return err
		}
		alone = append(alone, time.Since(t0))
	}
	for _, q := range qs[:50] {
		t0 := time.Now()
		if _, err := ix.Update(context.Background(), time.Now(), nil); err != nil {
			return err
		}
		if _, err := search.Search(context.Background(), []*search.Index{ix}, q, opts()); err != nil {
			return err
		}
		fresh = append(fresh, time.Since(t0))
	}
	for _, q := range qs[:50] {
		t0 := time.Now()
		grepCount(files, q)
		grep = append(grep, time.Since(t0))
	}
	fmt.Printf("  query p50 %s p95 %s (index open); with a full update walk before it: p50 %s\n", ms(pct(lat, 0.5)), ms(pct(lat, 0.95)), ms(pct(fresh, 0.5)))
	fmt.Printf("  the same queries naming a date: p50 %s p95 %s; a date alone (lists those days' files): p50 %s p95 %s\n", ms(pct(dated, 0.5)), ms(pct(dated, 0.95)), ms(pct(alone, 0.5)), ms(pct(alone, 0.95)))
	fmt.Printf("  grep-style scan of the same files: p50 %s -> search is %.0fx faster\n", ms(pct(grep, 0.5)), pct(grep, 0.5).Seconds()/pct(lat, 0.5).Seconds())
	crowded := 0
	for _, q := range qs {
		r, err := search.Search(context.Background(), []*search.Index{ix}, q, opts())
		if err != nil {
			return err
		}
		if maxPerFile(r.Results[:min(5, len(r.Results))], "") > 2 {
			crowded++
		}
	}
	fmt.Printf("  queries where one file holds more than 2 of the top 5: %d/%d\n", crowded, len(qs))
	if memhook == "" {
		return nil
	}
	if err := cliVsGrep(work, "generated vault", dir, qs[:60]); err != nil {
		return err
	}
	if extra != "" {
		return cliVsGrep(work, extra, extra, qs[:60])
	}
	return nil
}

// cliVsGrep runs, turn about, `memhook search --root dir --json Q` (a
// fresh process each time, as /cerebro:recall runs it: open the index,
// check freshness, search) and `grep -rilF -e w1 -e w2 dir` (the files
// holding any of the words), and prints both p50s, their ratio and the
// largest resident set size of each. The index is built first by
// `memhook index`, from nothing: the cold index time.
func cliVsGrep(work, name, dir string, qs []string) error {
	state, err := os.MkdirTemp(work, "state-")
	if err != nil {
		return err
	}
	env := append(os.Environ(), "CEREBRO_STATE_DIR="+state, "CEREBRO_HOME="+filepath.Join(state, "desk"), "HOME="+state)
	runOne := func(args ...string) (time.Duration, error) {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env, cmd.Dir = env, state
		t0 := time.Now()
		out, err := cmd.CombinedOutput()
		d := time.Since(t0)
		if cmd.ProcessState != nil {
			lastCPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		}
		if err != nil && !(args[0] == "grep" && cmd.ProcessState.ExitCode() == 1) {
			return 0, fmt.Errorf("%s: %w\n%s", strings.Join(args, " "), err, out)
		}
		return d, nil
	}
	// the child's own peak RSS, as /usr/bin/time reports it (a rusage
	// read here would count the fork of this large process)
	peak := func(args ...string) float64 {
		cmd := exec.Command("/usr/bin/time", append([]string{"-f", "%M"}, args...)...)
		cmd.Env, cmd.Dir = env, state
		var errb strings.Builder
		cmd.Stderr = &errb
		cmd.Run()
		lines := strings.Fields(errb.String())
		if len(lines) == 0 {
			return 0
		}
		var kb float64
		fmt.Sscan(lines[len(lines)-1], &kb)
		return kb / 1024
	}
	cold, err := runOne(memhook, "index", "--root", dir)
	if err != nil {
		return err
	}
	coldCPU := lastCPU
	var cli, grep []time.Duration
	var cliArgs, grepArgs []string
	for _, q := range qs {
		cliArgs = append([]string{memhook, "search", "--root", dir, "--json"}, strings.Fields(q)...)
		d, err := runOne(cliArgs...)
		if err != nil {
			return err
		}
		cli = append(cli, d)
		grepArgs = []string{"grep", "-rilF"}
		for _, w := range strings.Fields(q) {
			grepArgs = append(grepArgs, "-e", w)
		}
		grepArgs = append(grepArgs, dir)
		if d, err = runOne(grepArgs...); err != nil {
			return err
		}
		grep = append(grep, d)
	}
	cliRSS, grepRSS := peak(cliArgs...), peak(grepArgs...)
	fmt.Printf("  CLI on %s: memhook index (cold) %s wall, %s CPU; memhook search p50 %s p95 %s, grep -rilF p50 %s p95 %s -> CLI/grep p50 ratio %.2f; max RSS memhook %.1f MB, grep %.1f MB\n",
		name, ms(cold), ms(coldCPU), ms(pct(cli, 0.5)), ms(pct(cli, 0.95)), ms(pct(grep, 0.5)), ms(pct(grep, 0.95)),
		pct(cli, 0.5).Seconds()/pct(grep, 0.5).Seconds(), cliRSS, grepRSS)
	return nil
}

// grepCount is the baseline: read every file and count query words per line.
func grepCount(files []string, q string) int {
	words := textan.Words(q)
	n := 0
	for _, f := range files {
		data, _ := os.ReadFile(f)
		for _, l := range strings.Split(string(data), "\n") {
			low := strings.ToLower(l)
			for _, w := range words {
				n += strings.Count(low, w)
			}
		}
	}
	return n
}

func mdFiles(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func dirMB(dir string) float64 {
	var n int64
	for _, f := range mdFiles(dir) {
		if fi, err := os.Stat(f); err == nil {
			n += fi.Size()
		}
	}
	return float64(n) / (1 << 20)
}

func pct(l []time.Duration, p float64) time.Duration {
	s := append([]time.Duration(nil), l...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[int(p*float64(len(s)-1))]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
