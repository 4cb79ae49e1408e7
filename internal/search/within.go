package search

import (
	"fmt"
	"math"
	"time"
)

// bounds are the first and last second a period holds, as unix times
// comparable with a file's date (see fileDate): From's midnight, To's last
// second; an open end is the extreme of its side.
func (p *DayRange) bounds() (lo, hi int64) {
	lo, hi = 1, math.MaxInt64 // an undated file (0) is never inside
	if !p.From.IsZero() {
		lo = max(lo, p.From.Unix())
	}
	if !p.To.IsZero() {
		hi = p.To.AddDate(0, 0, 1).Unix() - 1
	}
	return lo, hi
}

// holds reports whether a file dated so lies in the period; every file
// lies in a nil one.
func (p *DayRange) holds(dated int64) bool {
	if p == nil {
		return true
	}
	lo, hi := p.bounds()
	return dated >= lo && dated <= hi
}

// filter is the SQL condition (on chunks_fts) keeping to the chunks of
// files dated in the period; "" for nil.
func (p *DayRange) filter() (string, []any) {
	if p == nil {
		return "", nil
	}
	lo, hi := p.bounds()
	return ` AND rowid IN (SELECT c.id FROM chunks c JOIN files f ON f.root = c.root AND f.path = c.path WHERE f.dated BETWEEN ? AND ?)`, []any{lo, hi}
}

// ParsePeriod reads the days a search is kept to, each YYYY-MM-DD or
// empty for an open end; both empty is no period (nil).
func ParsePeriod(since, until string) (*DayRange, error) {
	if since == "" && until == "" {
		return nil, nil
	}
	var p DayRange
	for _, end := range []struct {
		name, v string
		t       *time.Time
	}{{"since", since, &p.From}, {"until", until, &p.To}} {
		if end.v == "" {
			continue
		}
		t, err := time.Parse(time.DateOnly, end.v)
		if err != nil {
			return nil, fmt.Errorf("%s %q: want a day YYYY-MM-DD", end.name, end.v)
		}
		*end.t = t
	}
	if !p.From.IsZero() && !p.To.IsZero() && p.To.Before(p.From) {
		return nil, fmt.Errorf("until %s is before --since %s", until, since)
	}
	return &p, nil
}
