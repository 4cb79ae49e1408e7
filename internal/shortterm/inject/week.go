package inject

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/journal"
	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/journal/timeline"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// weekInfo is the newest weekly roll-up, read, and the older ones' names.
type weekInfo struct {
	path, rel, dir string
	r              journal.Rollup
	key            string   // what handing it whole is remembered by
	older          []string // older weeks, newest first
	openKey        string   // the tracker's name for its open items
	// Its open items, decisions and sessions, as pieces.
	decLabel, sesLabel        int
	open, decisions, sessions []int
}

// weekNames bounds the older weeks named.
const weekNames = 4

// readWeeks reads the newest rollups/week/YYYY-Www.md; nil when none.
func readWeeks(l project.Layout, noteBytes int64) (*weekInfo, error) {
	dir := filepath.Join(l.ShortDir(), "rollups", "week")
	ents, err := safefs.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list weekly roll-ups: %w", err)
	}
	var names []string
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".md") && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, strings.TrimSuffix(e.Name(), ".md"))
		}
	}
	if len(names) == 0 {
		return nil, nil
	}
	sort.Sort(sort.Reverse(sort.StringSlice(names)))
	path := filepath.Join(dir, names[0]+".md")
	data, err := safefs.ReadNote(path, noteBytes)
	if err != nil {
		return nil, fmt.Errorf("read weekly roll-up: %w", err)
	}
	w := &weekInfo{path: path, rel: rel(l, path), dir: rel(l, dir), r: journal.ReadRollup(data), older: names[1:],
		key: contentKey("week", string(data))}
	if w.r.Period == "" {
		w.r.Period = names[0]
	}
	w.openKey = "week:" + w.r.Period + "#open"
	return w, nil
}

// carryOpen hands the tracker the roll-up's open items of the days before
// the window (the window's own sections raise theirs), so that a later
// section closes them too.
func (w *weekInfo) carryOpen(tr *timeline.Tracker, windowStart string) {
	byDate := map[string][]string{}
	var dates []string
	for _, it := range w.r.Open {
		if it.Date != "" && it.Date >= windowStart {
			continue
		}
		if _, ok := byDate[it.Date]; !ok {
			dates = append(dates, it.Date)
		}
		byDate[it.Date] = append(byDate[it.Date], it.Text)
	}
	sort.Strings(dates)
	for _, d := range dates {
		tr.Add(timeline.Section{Date: d, Key: w.openKey, Entry: daily.Entry{Lists: []daily.List{{Head: daily.HeadOpen, Items: byDate[d]}}}})
	}
}

// addWeek adds the roll-up's pieces: its heading (the period, and the
// older weeks by name), the open items no section of the window closed,
// its decisions, and the sessions of its days before the window.
func (p *plan) addWeek(o Options, w *weekInfo, windowStart string, tr *timeline.Tracker) {
	out := p.addBlock(block{kind: "weekly-rollup", source: w.rel, label: fmt.Sprintf(" period=%q", w.r.Period)}, "")
	head := "Week " + w.r.Period + "."
	if w.r.From != "" && w.r.To != "" {
		head = fmt.Sprintf("Week %s (%s – %s), days with sessions: %d.", w.r.Period, w.r.From, w.r.To, w.r.Days)
	}
	if len(w.older) > 0 {
		names := w.older
		more := ""
		if len(names) > weekNames {
			names, more = names[:weekNames], fmt.Sprintf(" and %d more", len(w.older)-weekNames)
		}
		head += fmt.Sprintf(" Older weeks, not shown: %s%s, in %s/.", strings.Join(names, ", "), more, w.dir)
	}
	p.weekHead = p.addPiece(piece{out: out, text: head + "\n", keys: []string{w.key}, file: w.rel, what: whatWeek, name: "the weekly roll-up " + w.r.Period})
	label := func(text string) int {
		return p.addPiece(piece{out: out, text: text + "\n", needs: []int{p.weekHead}, file: w.rel, what: whatWeekLabel})
	}
	item := func(lab int, text, date string, wh what) int {
		t := "- " + timeline.Clip(text, itemRunes)
		if date != "" {
			t += " (" + date + ")"
		}
		return p.addPiece(piece{out: out, text: t + "\n", needs: []int{lab}, file: w.rel, what: wh})
	}
	// The roll-up's open items are of the weeks before the window: open
	// and untouched for more than a week, they are counted, not listed
	// (the roll-up lists them).
	var open []timeline.Item
	for _, it := range tr.Open() {
		if it.Key == w.openKey {
			open = append(open, it)
		}
	}
	if len(open) > 0 {
		oldest, newest := open[0].Since, open[0].Date
		for _, it := range open {
			oldest, newest = min(oldest, it.Since), max(newest, it.Date)
		}
		days := ""
		switch {
		case oldest == "" || newest == "":
		case oldest == newest:
			days = " (raised " + oldest + ")"
		default:
			days = " (raised " + oldest + " – " + newest + ")"
		}
		text := fmt.Sprintf("Open for more than a week and not closed since: %s%s, listed in the roll-up.", plural(len(open), "item"), days)
		w.open = append(w.open, p.addPiece(piece{out: out, text: text + "\n", needs: []int{p.weekHead}, file: w.rel, what: whatWeekOpen,
			name: plural(len(open), "open item") + " of the roll-up", keys: openRefs(open)}))
	}
	if len(w.r.Decisions) > 0 {
		w.decLabel = label("Decided:")
		for _, it := range w.r.Decisions {
			w.decisions = append(w.decisions, item(w.decLabel, it.Text, it.Date, whatWeekDecision))
		}
	}
	var ses []journal.RollupItem
	for _, it := range w.r.Headlines {
		if it.Date < windowStart {
			ses = append(ses, it)
		}
	}
	if len(ses) > 0 {
		w.sesLabel = label(fmt.Sprintf("Sessions before %s:", windowStart))
		for _, it := range ses {
			w.sessions = append(w.sessions, item(w.sesLabel, it.Text, "", whatWeekSession))
		}
	}
	p.week = w
}

// weekOrder is the roll-up's pieces in budget order: its heading and open
// items after the lines (late false), its decisions, then its sessions,
// after the sections whole (late true).
func (p *plan) weekOrder(late bool) []int {
	w := p.week
	if w == nil {
		return nil
	}
	if !late {
		// The heading comes with the first item shown (each item pulls in
		// what it needs), never alone while there are items to show.
		return w.open
	}
	if len(w.open)+len(w.decisions)+len(w.sessions) == 0 {
		return []int{p.weekHead}
	}
	return append(append([]int(nil), w.decisions...), w.sessions...)
}

// rel is path from the project root, with forward slashes: what a model
// working in the project opens.
func rel(l project.Layout, path string) string {
	r, err := filepath.Rel(l.Root, path)
	if err != nil || strings.HasPrefix(r, "..") {
		return path
	}
	return filepath.ToSlash(r)
}

// openRefs are the items' keys for [Given]: handed as counted, they are
// not counted again.
func openRefs(items []timeline.Item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Ref()
	}
	return out
}
