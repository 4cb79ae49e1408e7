package search

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
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
	for _, w := range textan.Words(text) {
		s := textan.Stem(w)
		if seen[s] || textan.IsStopWord(w) || dateFillers[s] {
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
	if m := dayName().FindStringSubmatch(stem); m != nil {
		if t, err := time.Parse(time.DateOnly, m[0]); err == nil {
			return DayRange{t, t}, true
		}
	}
	if m := weekName().FindStringSubmatch(stem); m != nil {
		y, _ := strconv.Atoi(m[1])
		w, _ := strconv.Atoi(m[2])
		// ISO week 1 holds January 4th; the week runs Monday to Sunday
		jan4 := time.Date(y, 1, 4, 0, 0, 0, 0, time.UTC)
		mon := jan4.AddDate(0, 0, -((int(jan4.Weekday())+6)%7)+7*(w-1))
		return DayRange{mon, mon.AddDate(0, 0, 6)}, true
	}
	if m := monthName().FindStringSubmatch(stem); m != nil {
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		if r, ok := monthRange(y, mo); ok {
			return r, true
		}
	}
	if m := yearName().FindStringSubmatch(stem); m != nil && kind == KindShort {
		y, _ := strconv.Atoi(m[1])
		return DayRange{time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(y, 12, 31, 0, 0, 0, 0, time.UTC)}, true
	}
	return DayRange{}, false
}

// dateFilter answers whether a hit's file lies in the ranges a query
// names, reading each file's name once, and lists each index's files
// that do.
type dateFilter struct {
	ranges []DayRange
	seen   map[string]bool
	paths  map[*Index][]string
}

// datedIn finds the files of each index whose names date them to a
// period meeting the ranges; found reports whether there are some.
func datedIn(ctx context.Context, idxs []*Index, ranges []DayRange) (f *dateFilter, found bool, err error) {
	f = &dateFilter{ranges: ranges, seen: map[string]bool{}, paths: map[*Index][]string{}}
	lo, hi := span(ranges)
	for _, ix := range idxs {
		// a file's date is its period's end, and no period is longer than a year
		rels, err := ix.datedFiles(ctx, lo, hi.AddDate(1, 0, 1))
		if err != nil {
			return nil, false, err
		}
		for _, rel := range rels {
			if f.covers(&hit{ix: ix, rel: rel}) {
				f.paths[ix] = append(f.paths[ix], rel)
				found = true
			}
		}
	}
	return f, found, nil
}

// files are the index's files in the ranges, nil when there are none
// (or no dates).
func (f *dateFilter) files(ix *Index) []string {
	if f == nil {
		return nil
	}
	return f.paths[ix]
}

// matchesAny reports whether a chunk of the files in the ranges holds
// one of the stems that select candidates.
func (f *dateFilter) matchesAny(ctx context.Context, idxs []*Index, stems []string) (bool, error) {
	for _, ix := range idxs {
		only := f.files(ix)
		if only == nil {
			continue
		}
		_, match, err := ix.weights(stems)
		if err != nil || len(match) == 0 {
			if err != nil {
				return false, err
			}
			continue
		}
		filter, args := onlyFiles(ix.id, only)
		var one int
		err = ix.db.QueryRowContext(ctx, `SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ?`+filter+` LIMIT 1`,
			append([]any{rootsMatch([]*Index{ix}, match)}, args...)...).Scan(&one)
		if err == nil {
			return true, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return false, fmt.Errorf("search %s: %w", ix.Root.Dir, err)
		}
	}
	return false, nil
}

// onlyFiles is the SQL condition (on chunks_fts) and its arguments
// keeping to the chunks of the files listed; "" and none for nil.
func onlyFiles(root int64, only []string) (string, []any) {
	if only == nil {
		return "", nil
	}
	args := make([]any, 0, len(only)+1)
	args = append(args, root)
	for _, p := range only {
		args = append(args, p)
	}
	return ` AND rowid IN (SELECT id FROM chunks WHERE root = ? AND path IN (?` + strings.Repeat(",?", len(only)-1) + `))`, args
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

// searchDates answers a query naming days that some file is dated to:
// without the date words, favouring those days' files, or listing them
// when nothing else is asked. ok is false when the query names no such
// day or no hit lies in them, and the query is to be searched as written.
func searchDates(ctx context.Context, idxs []*Index, query string, o Options) (resp *Response, ok bool, err error) {
	if o.DateBoost < 0 || o.Now.IsZero() {
		return nil, false, nil
	}
	dq := ParseDates(query, o.Now)
	if len(dq.Ranges) == 0 {
		return nil, false, nil
	}
	dates, named, err := datedIn(ctx, idxs, dq.Ranges)
	if err == nil && !named {
		// no note of the days asked about: the notes of the week after
		// them are where what happened then was told ("I just got
		// accepted", a session recounting the day before)
		dates, named, err = datedIn(ctx, idxs, weekAfter(dq.Ranges))
	}
	if err != nil || !named {
		return nil, false, err
	}
	rest := dq.Rest(query)
	stems := contentStems(rest)
	if len(stems) == 0 {
		resp, err := listDays(ctx, idxs, dq.Ranges, o)
		return resp, err == nil && len(resp.Results) > 0, err
	}
	if o.Embedder == nil { // without vectors only words can find a hit there: look before ranking
		if ok, err := dates.matchesAny(ctx, idxs, stems); err != nil || !ok {
			return nil, false, err
		}
	}
	return searchStems(ctx, idxs, rest, stems, o, dates)
}

// toldAfter is how many days after a day the notes that may tell of it
// run, when the day has no note of its own.
const toldAfter = 7

// weekAfter widens each range by the toldAfter days that follow it.
func weekAfter(ranges []DayRange) []DayRange {
	out := make([]DayRange, len(ranges))
	for i, r := range ranges {
		out[i] = DayRange{From: r.From, To: r.To.AddDate(0, 0, toldAfter)}
	}
	return out
}

// span is the first and last day of the ranges.
func span(ranges []DayRange) (lo, hi time.Time) {
	lo, hi = ranges[0].From, ranges[0].To
	for _, r := range ranges {
		if r.From.Before(lo) {
			lo = r.From
		}
		if r.To.After(hi) {
			hi = r.To
		}
	}
	return lo, hi
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
	lo, hi := span(ranges)
	for _, ix := range idxs {
		rels, err := ix.datedFiles(ctx, lo, hi)
		if err != nil {
			return nil, err
		}
		for _, rel := range rels {
			p, ok := namePeriod(ix.Root.Kind, rel)
			if !ok || !inside(p, ranges) || !o.Within.holds(p.To.Unix()) {
				continue
			}
			h := &hit{ix: ix, rel: rel, score: 1, cover: 1} // the days were all that was asked
			err := ix.db.QueryRowContext(ctx, `SELECT start_line, end_line, text FROM chunks WHERE root = ? AND path = ? ORDER BY start_line LIMIT 1`, ix.id, rel).
				Scan(&h.start, &h.end, &h.text)
			if errors.Is(err, sql.ErrNoRows) {
				continue // an empty file
			}
			if err != nil {
				return nil, fmt.Errorf("list days in %s: %w", ix.Root.Dir, err)
			}
			h.snip = leadSnippet(h.text, h.start, o.snippetChars())
			all = append(all, listed{h, p})
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

// datedFiles lists the files whose date (a period's end) lies in [lo, hi].
func (ix *Index) datedFiles(ctx context.Context, lo, hi time.Time) ([]string, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT path FROM files WHERE root = ? AND dated BETWEEN ? AND ?`, ix.id, lo.Unix(), hi.Unix())
	if err != nil {
		return nil, fmt.Errorf("list days in %s: %w", ix.Root.Dir, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, fmt.Errorf("list days in %s: %w", ix.Root.Dir, err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list days in %s: %w", ix.Root.Dir, err)
	}
	return out, nil
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
// lines skipped, then whole lines up to limit runes.
func leadSnippet(text string, startLine, limit int) snip {
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
	for to < len(lines) && (to == from || size+utf8.RuneCountInString(lines[to])+1 <= limit+1) {
		size += utf8.RuneCountInString(lines[to]) + 1
		to++
	}
	t := strings.Join(lines[from:to], "\n")
	if utf8.RuneCountInString(t) > limit {
		t = string([]rune(t)[:limit-1]) + "…"
	}
	return snip{text: t, off: from, n: to - from}
}
