package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// The real projects: LoCoMo conversations, the Obsidian help vaults and
// real Claude Code sessions, each written as a project's memory.

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
