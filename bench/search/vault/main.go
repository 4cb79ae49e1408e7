// Command vault measures memory search at vault scale: it indexes the real
// Obsidian help vaults (English and Russian, ../shared/fixtures/vaults)
// and a generated 7,000-note vault, and prints index throughput, the cost
// of an incremental reindex after touching 10 notes, query latency
// (against a grep-style scan of the same files, in the same run), and
// whether Russian queries in one inflected form find the others.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
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
	cold := flag.Int("cold", 0, "only measure the generated vault's cold index against a plain FTS5 load, this many rounds")
	prof := flag.String("cpuprofile", "", "write a CPU profile of the run here")
	flag.Parse()
	if *prof != "" {
		f, err := os.Create(*prof)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}
	if *cold > 0 {
		if err := coldRounds(*vaults, *notes, *cold); err != nil {
			fmt.Fprintln(os.Stderr, "vault:", err)
			os.Exit(1)
		}
		return
	}
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
