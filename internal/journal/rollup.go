// Package journal holds the formats every memory level reads, on the
// ground floor so that no level imports another's folder: the daily file
// (journal/daily: written at a flush, read by inject, the roll-ups, the night
// pass, forget and the dashboard), what a run of its sections adds up to
// (journal/timeline), the names of the actions its items record
// (journal/intent), and here a roll-up file read back ([ReadRollup]). When
// a section is written or a roll-up built stays with the level that does
// it; these packages only know the shape.
package journal

import (
	"strconv"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/text/frontmatter"
)

// Rollup is a roll-up file read back: its period and the items of its
// sections ("## Headlines", "## Decisions", "## Open"), each with the day
// it links to. A hand edit is read as far as it keeps the format.
type Rollup struct {
	Period, From, To string
	Days             int // days with sessions
	Headlines        []RollupItem
	Decisions        []RollupItem
	Open             []RollupItem
}

// RollupItem is one "- " line of a roll-up: its text without the day
// link, and the day.
type RollupItem struct{ Text, Date string }

// ReadRollup reads what longterm.Store.RollupDays wrote.
func ReadRollup(data []byte) Rollup {
	var r Rollup
	body := string(data)
	if b, err := frontmatter.Split(data); err == nil {
		body = string(data[b.BodyStart:])
		for _, l := range strings.Split(string(b.YAML), "\n") {
			k, v, ok := strings.Cut(l, ":")
			if !ok {
				continue
			}
			v = strings.TrimSpace(v)
			switch strings.TrimSpace(k) {
			case "period":
				r.Period = v
			case "from":
				r.From = v
			case "to":
				r.To = v
			case "days_with_sessions":
				r.Days, _ = strconv.Atoi(v)
			}
		}
	}
	var cur *[]RollupItem
	for _, l := range strings.Split(body, "\n") {
		t := strings.TrimSpace(strings.TrimSuffix(l, "\r"))
		if h, ok := strings.CutPrefix(t, "## "); ok {
			switch strings.TrimSpace(h) {
			case "Headlines":
				cur = &r.Headlines
			case "Decisions":
				cur = &r.Decisions
			case "Open":
				cur = &r.Open
			default:
				cur = nil
			}
			continue
		}
		if cur == nil || !strings.HasPrefix(t, "- ") {
			continue
		}
		*cur = append(*cur, rollupItem(strings.TrimSpace(t[2:])))
	}
	return r
}

// rollupItem splits "text · [[daily/YYYY-MM-DD]]".
func rollupItem(s string) RollupItem {
	i := strings.LastIndex(s, " · [[daily/")
	if i < 0 || !strings.HasSuffix(s, "]]") {
		return RollupItem{Text: s}
	}
	date := strings.TrimSuffix(s[i+len(" · [[daily/"):], "]]")
	if j := strings.IndexByte(date, '|'); j >= 0 {
		date = date[:j]
	}
	return RollupItem{Text: s[:i], Date: date}
}
