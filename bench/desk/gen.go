package main

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/cerebro-mem/cerebro/internal/shortterm/distill"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// question is asked of the desk: found when a result of its project
// shows every group of words (one alternative of each).
type question struct {
	text    string
	project string // its project's folder
	groups  [][]string
}

func (q question) holds(text string) bool {
	low := strings.Join(strings.Fields(strings.ToLower(text)), " ")
	for _, g := range q.groups {
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
}

// sessionProjects replays the real Claude Code sessions that
// distill-facts-dev.json describes into their projects' daily files, by
// the flush's own distiller (distill.Extractive) and writer
// (daily.Append), each on a day of the year; the questions are the
// facts' sentences, asked weeks later.
func sessionProjects(factsPath, transcripts, dir string, year time.Time) ([]string, []question, []string, error) {
	raw, err := os.ReadFile(factsPath)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("read %s: %w", factsPath, err)
	}
	var facts struct {
		Transcripts []struct {
			File  string `json:"file"`
			Facts []struct {
				Fact  string     `json:"fact"`
				AnyOf [][]string `json:"any_of"`
			} `json:"facts"`
		} `json:"transcripts"`
	}
	if err := json.Unmarshal(raw, &facts); err != nil {
		return nil, nil, nil, fmt.Errorf("parse %s: %w", factsPath, err)
	}
	var roots []string
	seen := map[string]bool{}
	var qs []question
	var corpus []string
	for i, tr := range facts.Transcripts {
		name := sessionProject(tr.File)
		root := filepath.Join(dir, name)
		if !seen[root] {
			seen[root] = true
			roots = append(roots, root)
		}
		path := filepath.Join(transcripts, tr.File)
		items, _, err := (transcript.Reader{}).Read(path, 0, 0)
		if err != nil {
			return nil, nil, nil, err
		}
		if len(items) == 0 {
			if l, _, err := (transcript.Reader{}).ReadSidechainLog(path, 0, 0); err == nil {
				items = l.Items
			}
		}
		if len(items) == 0 {
			continue
		}
		// spread over the year, so that a session is months old when asked
		day := year.AddDate(0, 0, 20+i*19).Add(10 * time.Hour)
		seg := distill.Segment{SessionID: fmt.Sprintf("bench-%02d", i), Project: name, Trigger: "session-end",
			Items: items, Start: day, End: day.Add(time.Hour), Dir: root, Cwd: root}
		body := distill.Extractive(seg)
		if strings.TrimSpace(body) == "" {
			continue
		}
		if _, err := daily.Append(filepath.Join(root, ".claude", "memory_short", "daily"), name,
			daily.Section{Start: seg.Start, End: seg.End, SessionID: seg.SessionID, Trigger: seg.Trigger, Seq: 1, Body: body}); err != nil {
			return nil, nil, nil, err
		}
		corpus = append(corpus, strings.Split(body, "\n")...)
		for _, f := range tr.Facts {
			q := question{text: f.Fact, project: root, groups: f.AnyOf}
			// a question whose answer the distillate kept: what memory
			// can be asked about
			if q.holds(body) {
				qs = append(qs, q)
			}
		}
	}
	return roots, qs, corpus, nil
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

// vocab draws words with the frequencies of the real text.
type vocab struct {
	words []string
	cum   []int
}

// vocabs are the generated projects' words: the commonWords most frequent
// words of the real text are every project's, and each project holds a
// share of the others, as real projects share a language and differ in
// their own terms.
func vocabs(lines []string, n int, r *rand.Rand) []*vocab {
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
			if k >= 1500 && r.Intn(10) != 0 {
				continue
			}
			total += counts[w]
			v.words, v.cum = append(v.words, w), append(v.cum, total)
		}
		out[i] = v
	}
	return out
}

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

// generate writes a project of days daily files, one a day from first
// (one to three sessions each, in the flush's section format), wiki pages
// and Claude Code's auto-memory, in v's words.
func generate(root, home string, v *vocab, r *rand.Rand, first time.Time, days int) {
	for d := 0; d < days; d++ {
		day := first.AddDate(0, 0, d)
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n", day.Format("2006-01-02"))
		for s := 0; s < 1+r.Intn(3); s++ {
			fmt.Fprintf(&b, "\n## %02d:%02d–%02d:%02d · session %08x · auto\n\n### Done\n- %s", 9+s*3, r.Intn(60), 10+s*3, r.Intn(60), r.Uint32(), v.text(r, 60+r.Intn(200)))
		}
		path := filepath.Join(root, ".claude", "memory_short", "daily", day.Format("2006-01-02")+".md")
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, []byte(b.String()), 0o644)
		os.Chtimes(path, day, day)
	}
	for w := 0; w < 10+r.Intn(41); w++ {
		path := filepath.Join(root, ".claude", "memory_long", fmt.Sprintf("area%d", w%4), fmt.Sprintf("page-%03d.md", w))
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, []byte(fmt.Sprintf("# %s\n\n- %s", strings.TrimSuffix(v.text(r, 3), ".\n"), v.text(r, 120+r.Intn(400)))), 0o644)
	}
	os.WriteFile(filepath.Join(root, ".claude", "memory_long", "CORE.md"), []byte("# Core\n\n- "+v.text(r, 80)), 0o644)
	auto := search.AutoMemoryDir(home, root)
	os.MkdirAll(auto, 0o755)
	os.WriteFile(filepath.Join(auto, "MEMORY.md"), []byte("# Memory\n\n- "+v.text(r, 60+r.Intn(120))), 0o644)
}
