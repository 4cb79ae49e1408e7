package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/journal/timeline"
)

type dailyFile struct{ path, text string }

// newestWithin is what the inject gave before it knew the week: the
// file's newest sections that fit max, in file order.
func newestWithin(text string, max int) string {
	secs := daily.Parse([]byte(text)).Sections
	n, i := 0, len(secs)
	for i > 0 && n+utf8.RuneCountInString(secs[i-1].Text()) <= max-300 {
		i--
		n += utf8.RuneCountInString(secs[i].Text())
	}
	var b strings.Builder
	for _, s := range secs[i:] {
		b.WriteString(s.Text())
	}
	return b.String()
}

// newestDaily is the newest daily file before day: what the previous
// day's file alone gives.
func newestDaily(proj string, day time.Time) dailyFile {
	files, _ := filepath.Glob(filepath.Join(proj, ".claude", "memory_short", "daily", "*.md"))
	sort.Strings(files)
	var best string
	for _, f := range files {
		if strings.TrimSuffix(filepath.Base(f), ".md") < day.Format(time.DateOnly) {
			best = f
		}
	}
	if best == "" {
		return dailyFile{}
	}
	data, err := os.ReadFile(best)
	check(err)
	return dailyFile{best, string(data)}
}

// allDaily is every daily file of the project, joined.
func allDaily(proj string) string {
	files, _ := filepath.Glob(filepath.Join(proj, ".claude", "memory_short", "daily", "*.md"))
	sort.Strings(files)
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		check(err)
		b.Write(data)
	}
	return b.String()
}

// sectionsBySession counts the sections each session wrote.
func sectionsBySession(proj string) map[string]int {
	out := map[string]int{}
	files, _ := filepath.Glob(filepath.Join(proj, ".claude", "memory_short", "daily", "*.md"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		check(err)
		for _, s := range daily.Parse(data).Sections {
			out[s.SessionID]++
		}
	}
	return out
}

// omissionsNamed checks that every section of the week's daily files is
// in the inject (whole or as a line, as the session's handed set records)
// or its file is named in the note on what was left out, and that the
// roll-up is shown or named. It returns what is missing, "" for nothing.
func omissionsNamed(w *week, text, session string) string {
	sid := map[string]string{"inject": "eighth-day", "inject-rollup": "eighth-day-after-rollup"}[session]
	givenFiles, _ := filepath.Glob(filepath.Join(w.state, "sessions", "*", sid+".given"))
	had := map[string]bool{}
	for _, g := range givenFiles {
		data, err := os.ReadFile(g)
		check(err)
		for _, k := range strings.Fields(string(data)) {
			had[k] = true
		}
	}
	note := ""
	if i := strings.Index(text, `<memory kind="omitted"`); i >= 0 {
		note = text[i:]
	}
	var missing []string
	files, _ := filepath.Glob(filepath.Join(w.proj, ".claude", "memory_short", "daily", "*.md"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		check(err)
		rel, _ := filepath.Rel(w.proj, f)
		for _, s := range daily.Parse(data).Sections {
			k := fmt.Sprintf("%s#%d", s.SessionID, s.Seq)
			if had[k] && strings.Contains(text, "session "+s.Short+" ") || had["line:"+k] {
				continue
			}
			if !strings.Contains(note, "- "+filepath.ToSlash(rel)+": ") {
				missing = append(missing, k)
			}
		}
	}
	rolls, _ := filepath.Glob(filepath.Join(w.proj, ".claude", "memory_short", "rollups", "week", "*.md"))
	if len(rolls) > 0 && session == "inject-rollup" {
		sort.Strings(rolls)
		name := strings.TrimSuffix(filepath.Base(rolls[len(rolls)-1]), ".md")
		rel, _ := filepath.Rel(w.proj, rolls[len(rolls)-1])
		if !strings.Contains(text, "Week "+name) && !strings.Contains(note, filepath.ToSlash(rel)) {
			missing = append(missing, "roll-up "+name)
		}
	}
	if len(missing) == 0 {
		return ""
	}
	return fmt.Sprintf("%d not named: %s", len(missing), strings.Join(missing, ", "))
}

// openListed counts the items of the days' Open lists that no later
// section closed (the inject's own rules, timeline.Tracker) and how many
// of them text holds, each by its words up to the inject's clip; shown
// are those it holds.
func openListed(proj, text string) (in, all int, missing []string, shown []timeline.Item) {
	files, _ := filepath.Glob(filepath.Join(proj, ".claude", "memory_short", "daily", "*.md"))
	sort.Strings(files)
	var tr timeline.Tracker
	for _, f := range files {
		data, err := os.ReadFile(f)
		check(err)
		date := strings.TrimSuffix(filepath.Base(f), ".md")
		for i, sec := range daily.Parse(data).Sections {
			tr.Add(timeline.Section{Date: date, Key: fmt.Sprintf("%s#%d", date, i), Entry: sec})
		}
	}
	flat := strings.Join(strings.Fields(text), " ")
	for _, it := range tr.Open() {
		all++
		words := strings.TrimSuffix(timeline.Clip(it.Text, 300), "…")
		if strings.Contains(flat, words) {
			in++
			shown = append(shown, it)
		} else {
			missing = append(missing, it.Date+": "+timeline.Clip(it.Text, 100))
		}
	}
	return in, all, missing, shown
}

// truthLabel is one hand label of bench/week/open-truth.json: whether an
// open item of a session, found by a part of its text, was still open at
// the end of the week — read from the session's transcript (and the
// later sessions of the same project), not from any memory.
type truthLabel struct {
	Transcript string `json:"transcript"`
	Match      string `json:"match"`
	Open       bool   `json:"open"`
	Why        string `json:"why"`
}

// openTruth labels the open items an inject shows: how many are still
// open by the hand labels, and the items no label covers.
func openTruth(shown []timeline.Item, session map[string]string, labels []truthLabel) (open, labelled int, unlabelled, stale []string) {
	file := map[string]string{} // session id → transcript
	for f, id := range session {
		file[id] = f
	}
	for _, it := range shown {
		var hit *truthLabel
		for i, l := range labels {
			if l.Transcript == file[it.Session] && strings.Contains(strings.ToLower(it.Text), strings.ToLower(l.Match)) {
				hit = &labels[i]
				break
			}
		}
		if hit == nil {
			unlabelled = append(unlabelled, short(file[it.Session])+": "+timeline.Clip(it.Text, 100))
			continue
		}
		labelled++
		if hit.Open {
			open++
		} else {
			stale = append(stale, short(file[it.Session])+": "+timeline.Clip(it.Text, 100)+" ("+hit.Why+")")
		}
	}
	return open, labelled, unlabelled, stale
}

// daysNamed counts the days with a section that the text names by date.
func daysNamed(proj, text string) (named, all int, missing []string) {
	files, _ := filepath.Glob(filepath.Join(proj, ".claude", "memory_short", "daily", "*.md"))
	sort.Strings(files)
	for _, f := range files {
		date := strings.TrimSuffix(filepath.Base(f), ".md")
		all++
		if strings.Contains(text, date) {
			named++
		} else {
			missing = append(missing, date)
		}
	}
	return named, all, missing
}
