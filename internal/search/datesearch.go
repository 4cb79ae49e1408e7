package search

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// DefaultDateBoost is the factor a hit's score takes when its file is
// dated inside a day range the query names, for [Options.DateBoost] 0.
const DefaultDateBoost = 2.0

// dateFillers are stems of words that, next to a date, only ask what
// went on that day ("what happened yesterday", «что я делал вчера»): with
// the date gone they would demand a match the daily file rarely has.
var dateFillers = map[string]bool{
	"happen": true, "дела": true, "сдела": true, "происход": true, "произошл": true, "случ": true,
}

// contentStems are the query's distinct stems without stop words or
// date fillers; none means the query asked for nothing but the dates.
func contentStems(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range Words(text) {
		s := Stem(w)
		if seen[s] || isStopWord(w) || dateFillers[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}

// namePeriod is the run of days a file's name dates it to, as [fileDate]
// reads names: a YYYY-MM-DD anywhere in it is that day, a roll-up's
// YYYY-Www, YYYY-MM (and, in short-term memory, YYYY) covers its period.
// CORE.md, MEMORY.md and other names are not dated.
func namePeriod(kind Kind, rel string) (DayRange, bool) {
	base := path.Base(rel)
	if strings.EqualFold(base, "CORE.md") || strings.EqualFold(base, "MEMORY.md") {
		return DayRange{}, false
	}
	stem := strings.TrimSuffix(base, path.Ext(base))
	if m := dayName.FindStringSubmatch(stem); m != nil {
		if t, err := time.Parse("2006-01-02", m[0]); err == nil {
			return DayRange{t, t}, true
		}
	}
	if m := weekName.FindStringSubmatch(stem); m != nil {
		y, _ := strconv.Atoi(m[1])
		w, _ := strconv.Atoi(m[2])
		// ISO week 1 holds January 4th; the week runs Monday to Sunday
		jan4 := time.Date(y, 1, 4, 0, 0, 0, 0, time.UTC)
		mon := jan4.AddDate(0, 0, -((int(jan4.Weekday())+6)%7)+7*(w-1))
		return DayRange{mon, mon.AddDate(0, 0, 6)}, true
	}
	if m := monthName.FindStringSubmatch(stem); m != nil {
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		if r, ok := monthRange(y, mo); ok {
			return r, true
		}
	}
	if m := yearName.FindStringSubmatch(stem); m != nil && kind == KindShort {
		y, _ := strconv.Atoi(m[1])
		return DayRange{time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(y, 12, 31, 0, 0, 0, 0, time.UTC)}, true
	}
	return DayRange{}, false
}

// dateFilter answers whether a hit's file lies in the ranges a query
// names, reading each file's name once.
type dateFilter struct {
	ranges []DayRange
	seen   map[string]bool
}

func newDateFilter(ranges []DayRange) *dateFilter {
	return &dateFilter{ranges: ranges, seen: map[string]bool{}}
}

// covers reports whether the file's period meets one of the ranges: a
// daily file on one of the days, a roll-up of a period holding one.
func (f *dateFilter) covers(h *hit) bool {
	key := h.ix.Root.Dir + "\x00" + h.rel
	if v, ok := f.seen[key]; ok {
		return v
	}
	v := false
	if p, ok := namePeriod(h.ix.Root.Kind, h.rel); ok {
		for _, r := range f.ranges {
			if !p.From.After(r.To) && !r.From.After(p.To) {
				v = true
				break
			}
		}
	}
	f.seen[key] = v
	return v
}

// listDays answers a query that named only dates: the files dated
// inside the ranges (roll-ups of a whole range first, then the newest
// day), each by the start of its first chunk, scored 1.
func listDays(ctx context.Context, idxs []*Index, ranges []DayRange, o Options) (*Response, error) {
	type listed struct {
		h *hit
		p DayRange
	}
	var all []listed
	lo, hi := ranges[0].From, ranges[0].To
	for _, r := range ranges {
		if r.From.Before(lo) {
			lo = r.From
		}
		if r.To.After(hi) {
			hi = r.To
		}
	}
	for _, ix := range idxs {
		rows, err := ix.db.QueryContext(ctx, `
			SELECT c.path, c.start_line, c.end_line, c.text FROM files f JOIN chunks c ON c.path = f.path
			WHERE f.dated BETWEEN ? AND ?
			  AND c.start_line = (SELECT min(start_line) FROM chunks WHERE path = f.path)`, lo.Unix(), hi.Unix())
		if err != nil {
			return nil, fmt.Errorf("list days in %s: %w", ix.Root.Dir, err)
		}
		for rows.Next() {
			h := &hit{ix: ix, score: 1}
			if err := rows.Scan(&h.rel, &h.start, &h.end, &h.text); err != nil {
				rows.Close()
				return nil, fmt.Errorf("list days in %s: %w", ix.Root.Dir, err)
			}
			p, ok := namePeriod(ix.Root.Kind, h.rel)
			if !ok || !inside(p, ranges) {
				continue
			}
			h.snip = leadSnippet(h.text, h.start)
			all = append(all, listed{h, p})
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("list days in %s: %w", ix.Root.Dir, err)
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if wa, wb := a.p.To.Sub(a.p.From), b.p.To.Sub(b.p.From); wa != wb {
			return wa > wb
		}
		if !a.p.To.Equal(b.p.To) {
			return a.p.To.After(b.p.To)
		}
		if a.h.ix.Root.Dir != b.h.ix.Root.Dir {
			return a.h.ix.Root.Dir < b.h.ix.Root.Dir
		}
		return a.h.rel < b.h.rel
	})
	resp := &Response{Results: []Result{}, Mode: ModeBM25}
	for i := 0; i < len(all) && i < o.Limit; i++ {
		resp.Results = append(resp.Results, all[i].h.result(o.Base))
	}
	return resp, nil
}

// inside reports whether period p lies wholly within one of the ranges.
func inside(p DayRange, ranges []DayRange) bool {
	for _, r := range ranges {
		if !p.From.Before(r.From) && !p.To.After(r.To) {
			return true
		}
	}
	return false
}

// leadSnippet is the start of a file's first chunk as a snippet: the
// front matter (type, date, project: nothing a reader needs) and blank
// lines skipped, then whole lines up to SnippetChars.
func leadSnippet(text string, startLine int) snip {
	lines := strings.Split(text, "\n")
	from := 0
	if startLine == 1 && len(lines) > 0 && strings.TrimSpace(lines[0]) == "---" {
		for i := 1; i < len(lines); i++ {
			if strings.TrimSpace(lines[i]) == "---" {
				from = i + 1
				break
			}
		}
	}
	for from < len(lines)-1 && strings.TrimSpace(lines[from]) == "" {
		from++
	}
	to, size := from, 0
	for to < len(lines) && (to == from || size+utf8.RuneCountInString(lines[to])+1 <= SnippetChars+1) {
		size += utf8.RuneCountInString(lines[to]) + 1
		to++
	}
	t := strings.Join(lines[from:to], "\n")
	if utf8.RuneCountInString(t) > SnippetChars {
		t = string([]rune(t)[:SnippetChars-1]) + "…"
	}
	return snip{text: t, off: from, n: to - from}
}
