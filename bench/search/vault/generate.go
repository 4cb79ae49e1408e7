package main

import (
	"context"
	"encoding/base64"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

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
	cpu0 := cpuTime()
	ix, st, d, err := build(filepath.Join(work, "idx-gen"), dir)
	if err != nil {
		return err
	}
	cold := cpuTime() - cpu0
	defer ix.Close()
	_, chunks, _ := ix.Stats()
	fmt.Printf("\ngenerated vault (word statistics of the real vaults, %d distinct words): %d notes, %.1f MB, %d chunks indexed in %s (%.0f notes/s, %.1f MB/s)\n", len(v.words), st.Files, mb, chunks, ms(d), float64(st.Files)/d.Seconds(), mb/d.Seconds())
	if f, err := ix.Footprint(); err == nil {
		if err := plainFTS(work, dir, d, cold, f.Bytes); err != nil {
			return err
		}
	}

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
