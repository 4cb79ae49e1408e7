package longterm

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/journal/timeline"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Roll-ups of short-term distillates (design §4) live in
// <project>/.claude/memory_short/rollups/{week/YYYY-Www.md, month/YYYY-MM.md,
// year/YYYY.md}. They are pure functions of the day files (daily/ and
// daily/_archive/), so rebuilding is idempotent and never touches a day.
//
// When a period is built:
//   - an ISO week (Monday to Sunday) once its Sunday is before today, so
//     all seven days are past, a day without a file counting as a day
//     without sessions;
//   - a month once its last day is before today and every ISO week that
//     ends inside it has its file (a month holds only its own days, so the
//     edge weeks it shares with its neighbours contribute their days in
//     the month);
//   - a year once December is over and all twelve of its months have a
//     state, the same rule as a week's seven days: a month's roll-up, or
//     an explicit "no data" record for a month before the first recorded
//     day ([Store.RollupNoData]); a year never stands on fewer months.
// Periods before the first day on record are not built from data.

// DayDigest is what roll-ups take from one daily file.
type DayDigest struct {
	Date     string
	Sessions int // sections
	// Headlines has one line per session: its start time, title or first
	// request, and outcome (commits, tests, what was not done).
	Headlines []string
	Decisions []string
	// Open is the day's open items that no later section of the day
	// closed.
	Open []string
	secs []timeline.Section
}

// ParseDay takes a roll-up's digest from a daily file as [daily.Parse]
// reads it: each "## " section is a session's, a session's sections make
// one headline ([timeline.Session]), the Decided items are the day's and
// so are the Open items no later section closed.
func ParseDay(date string, data []byte) DayDigest {
	d := DayDigest{Date: date}
	for i, sec := range daily.Parse(data).Sections {
		d.Sessions++
		d.secs = append(d.secs, timeline.Section{Date: date, Key: fmt.Sprintf("%s#%d", date, i), Entry: sec})
		d.Decisions = append(d.Decisions, sec.Items(daily.HeadDecided)...)
	}
	for _, ses := range timeline.Sessions(d.secs) {
		d.Headlines = append(d.Headlines, headline(ses))
	}
	var tr timeline.Tracker
	for _, s := range d.secs {
		tr.Add(s)
	}
	for _, it := range tr.Open() {
		d.Open = append(d.Open, it.Text)
	}
	return d
}

// headline is a session's line in a roll-up.
func headline(ses timeline.Session) string {
	h := ses.Title
	if ses.Clock != "" {
		h = ses.Clock + " · " + h
	}
	if o := ses.Outcome(); o != timeline.NoOutcome {
		h += " · " + o
	}
	return h
}

// carryDays bounds how long a roll-up carries an open item no later
// section closed: four weeks after it was last raised, then the roll-up
// only counts it (the older roll-ups list it).
const carryDays = 28

// openTracker follows open items through the days in date order, so that
// a period's roll-up lists what was open at its end, carried from earlier
// periods too. Periods are asked for in order; an earlier one starts over.
type openTracker struct {
	days []DayDigest // sorted
	next int
	tr   timeline.Tracker
}

// at returns the items open at the end of day to that were raised in the
// period from..to or within carryDays of its end, and how many older ones
// are still open.
func (o *openTracker) at(from, to time.Time) (open []timeline.Item, older int) {
	end := to.Format(time.DateOnly)
	if o.next > 0 && o.days[o.next-1].Date > end {
		o.next, o.tr = 0, timeline.Tracker{}
	}
	for o.next < len(o.days) && o.days[o.next].Date <= end {
		for _, s := range o.days[o.next].secs {
			o.tr.Add(s)
		}
		o.next++
	}
	horizon := to.AddDate(0, 0, -carryDays).Format(time.DateOnly)
	if f := from.Format(time.DateOnly); f < horizon {
		horizon = f
	}
	for _, it := range o.tr.Open() {
		if it.Date < horizon {
			older++
			continue
		}
		open = append(open, it)
	}
	return open, older
}

// RollupResult lists the roll-up files a run wrote and left unchanged
// (paths relative to the rollups folder).
type RollupResult struct {
	Written   []string `json:"written"`
	Unchanged []string `json:"unchanged"`
	// Waiting says which closed period is not built yet and what it waits
	// for.
	Waiting []string `json:"waiting,omitempty"`
}

// waitingYear says why a year is not built: the months without a state,
// and, for months before the first recorded day, the command that records
// them as months without data.
func waitingYear(y int, missing []string, first time.Time) string {
	msg := fmt.Sprintf("year/%04d.md waits for %d month(s) without a state: %s", y, len(missing), strings.Join(missing, ", "))
	firstMonth := first.Format("2006-01")
	var before []string
	for _, m := range missing {
		if m < firstMonth {
			before = append(before, m)
		}
	}
	if len(before) > 0 {
		span := before[0]
		if len(before) > 1 {
			span += ".." + before[len(before)-1]
		}
		msg += fmt.Sprintf(" (before the first recorded day; `memhook rollup-days --no-data %s` records them as months without data)", span)
	}
	return msg
}

// RollupDays builds every roll-up whose period is complete at now.
func (s *Store) RollupDays(now time.Time) (*RollupResult, error) { return s.rollupDays(now, false) }

// RollupPlan says what [Store.RollupDays] would write at now, writing
// nothing.
func (s *Store) RollupPlan(now time.Time) (*RollupResult, error) { return s.rollupDays(now, true) }

func (s *Store) rollupDays(now time.Time, dryRun bool) (*RollupResult, error) {
	digests, err := s.readDays()
	if err != nil {
		return nil, err
	}
	res := &RollupResult{Written: []string{}, Unchanged: []string{}}
	if len(digests) == 0 {
		return res, nil
	}
	// Date arithmetic runs in UTC on the local calendar dates: no
	// daylight-saving shift can move a day.
	loc := time.UTC
	today := dateOf(now.Format(time.DateOnly), loc)
	first := dateOf(digests[0].Date, loc)
	byDate := map[string]DayDigest{}
	for _, d := range digests {
		byDate[d.Date] = d
	}
	open := &openTracker{days: digests}
	planned := map[string]bool{}
	exists := func(rel string) bool {
		if planned[rel] {
			return true
		}
		_, err := os.Stat(filepath.Join(s.RollupDir, filepath.FromSlash(rel)))
		return err == nil
	}
	write := func(rel string, data []byte) error {
		planned[rel] = true
		p := filepath.Join(s.RollupDir, filepath.FromSlash(rel))
		var changed bool
		var err error
		if dryRun {
			old, rerr := safefs.ReadNote(p, s.NoteBytes)
			changed = rerr != nil || string(old) != string(data)
		} else {
			changed, err = s.writeIfChanged(p, data)
		}
		if err != nil {
			return fmt.Errorf("write roll-up %s: %w", rel, err)
		}
		if changed {
			res.Written = append(res.Written, rel)
		} else {
			res.Unchanged = append(res.Unchanged, rel)
		}
		return nil
	}
	// Weeks: from the Monday of the first day's week.
	for mon := mondayOf(first); mon.AddDate(0, 0, 6).Before(today); mon = mon.AddDate(0, 0, 7) {
		if err := write(weekRel(mon), renderWeek(mon, byDate, open)); err != nil {
			return nil, err
		}
	}
	// Months: from the first day's month.
	for m := time.Date(first.Year(), first.Month(), 1, 0, 0, 0, 0, loc); m.AddDate(0, 1, -1).Before(today); m = m.AddDate(0, 1, 0) {
		if !weeksEndingInBuilt(m, mondayOf(first), exists) {
			break
		}
		if err := write(monthRel(m), renderMonth(m, mondayOf(first), byDate, open)); err != nil {
			return nil, err
		}
	}
	// Years: from the first day's year. A year waits for all twelve of its
	// months to have a state: a roll-up built from the days, or the
	// explicit "no data" a person records for a month before the first day
	// ([Store.RollupNoData]).
	for y := first.Year(); time.Date(y, 12, 31, 0, 0, 0, 0, loc).Before(today); y++ {
		var missing []string
		for m := 1; m <= 12; m++ {
			if mt := time.Date(y, time.Month(m), 1, 0, 0, 0, 0, loc); !exists(monthRel(mt)) {
				missing = append(missing, mt.Format("2006-01"))
			}
		}
		if len(missing) > 0 {
			res.Waiting = append(res.Waiting, waitingYear(y, missing, first))
			break
		}
		if err := write(fmt.Sprintf("year/%04d.md", y), renderYear(y, first, byDate, open)); err != nil {
			return nil, err
		}
	}
	if len(res.Written) > 0 && s.Dir != "" && !dryRun {
		if fi, err := os.Stat(s.Dir); err == nil && fi.IsDir() {
			if err := s.Log(now, "rollup-days", fmt.Sprintf("wrote %d roll-ups: %s", len(res.Written), strings.Join(res.Written, ", "))); err != nil {
				return nil, err
			}
		}
	}
	return res, nil
}

// readDays parses every day file in daily/ and daily/_archive/; a day in
// both places is taken from daily/.
func (s *Store) readDays() ([]DayDigest, error) {
	seen := map[string]bool{}
	var out []DayDigest
	for _, dir := range []string{s.DailyDir, s.ArchiveDir} {
		days, err := listDays(dir)
		if err != nil {
			return nil, err
		}
		for _, d := range days {
			if seen[d.Date] {
				continue
			}
			data, err := safefs.ReadNote(d.Path, s.NoteBytes)
			if err != nil {
				return nil, fmt.Errorf("read day %s: %w", d.Path, err)
			}
			seen[d.Date] = true
			out = append(out, ParseDay(d.Date, data))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Date < out[j].Date })
	return out, nil
}

// weeksEndingInBuilt reports whether every ISO week that ends in month,
// from the first recorded week on, has its file.
func weeksEndingInBuilt(month, firstMonday time.Time, exists func(string) bool) bool {
	for d := month; d.Month() == month.Month(); d = d.AddDate(0, 0, 1) {
		mon := d.AddDate(0, 0, -6)
		if d.Weekday() != time.Sunday || mon.Before(firstMonday) {
			continue
		}
		if !exists(weekRel(mon)) {
			return false
		}
	}
	return true
}

func dateOf(s string, loc *time.Location) time.Time {
	t, _ := time.ParseInLocation(time.DateOnly, s, loc)
	return t
}

func mondayOf(t time.Time) time.Time {
	off := (int(t.Weekday()) + 6) % 7
	return t.AddDate(0, 0, -off)
}

func weekName(mon time.Time) string {
	y, w := mon.ISOWeek()
	return fmt.Sprintf("%04d-W%02d", y, w)
}

func weekRel(mon time.Time) string { return "week/" + weekName(mon) + ".md" }
func monthRel(m time.Time) string  { return "month/" + m.Format("2006-01") + ".md" }
func dayLink(date string) string   { return "[[daily/" + date + "]]" }
func weekLink(mon time.Time) string {
	return "[[rollups/week/" + weekName(mon) + "|" + weekName(mon) + "]]"
}

// gather renders the headline, decision and open sections of the days
// from..to inclusive; the open items are those open at the period's end,
// whenever they were raised.
func gather(b *strings.Builder, from, to time.Time, byDate map[string]DayDigest, tracked *openTracker, headlines bool) (days int) {
	var heads, decs, open []string
	for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
		dd, ok := byDate[d.Format(time.DateOnly)]
		if !ok {
			continue
		}
		days++
		for _, h := range dd.Headlines {
			heads = append(heads, fmt.Sprintf("- %s %s · %s", dd.Date, h, dayLink(dd.Date)))
		}
		for _, x := range dd.Decisions {
			decs = append(decs, fmt.Sprintf("- %s · %s", x, dayLink(dd.Date)))
		}
	}
	items, older := tracked.at(from, to)
	for _, it := range items {
		open = append(open, fmt.Sprintf("- %s · %s", it.Text, dayLink(it.Date)))
	}
	section := func(title string, items []string) {
		b.WriteString("\n## " + title + "\n\n")
		if len(items) == 0 {
			b.WriteString("_None._\n")
			return
		}
		b.WriteString(strings.Join(items, "\n") + "\n")
	}
	if headlines {
		section("Headlines", heads)
	}
	section("Decisions", decs)
	section("Open", open)
	if older > 0 {
		fmt.Fprintf(b, "\n%d older open item(s), raised before this period and more than %d days before its end, not closed since, are in the earlier roll-ups.\n", older, carryDays)
	}
	return days
}

func header(kind, period string, from, to time.Time, days int) string {
	return fmt.Sprintf("---\ntype: rollup-%s\nperiod: %s\nfrom: %s\nto: %s\ndays_with_sessions: %d\n---\n\n",
		kind, period, from.Format(time.DateOnly), to.Format(time.DateOnly), days)
}

func renderWeek(mon time.Time, byDate map[string]DayDigest, open *openTracker) []byte {
	sun := mon.AddDate(0, 0, 6)
	var body strings.Builder
	days := gather(&body, mon, sun, byDate, open, true)
	var b strings.Builder
	b.WriteString(header("week", weekName(mon), mon, sun, days))
	fmt.Fprintf(&b, "# Week %s · %s – %s\n\nDays with sessions: %d of 7. Built from the daily distillates by `memhook rollup-days`; edits here are overwritten.\n",
		weekName(mon), mon.Format(time.DateOnly), sun.Format(time.DateOnly), days)
	b.WriteString(body.String())
	return []byte(b.String())
}

func renderMonth(m, firstMonday time.Time, byDate map[string]DayDigest, open *openTracker) []byte {
	last := m.AddDate(0, 1, -1)
	var body strings.Builder
	days := gather(&body, m, last, byDate, open, true)
	var b strings.Builder
	b.WriteString(header("month", m.Format("2006-01"), m, last, days))
	fmt.Fprintf(&b, "# Month %s\n\nDays with sessions: %d of %d. Built from the daily distillates by `memhook rollup-days`; edits here are overwritten.\n",
		m.Format("2006-01"), days, last.Day())
	b.WriteString("\n## Weeks\n\n")
	// Weeks overlapping the month, from the first recorded one; the one
	// running into next month is linked before it is built (days later).
	for mon := mondayOf(m); !mon.After(last); mon = mon.AddDate(0, 0, 7) {
		if !mon.Before(firstMonday) {
			b.WriteString("- " + weekLink(mon) + "\n")
		}
	}
	b.WriteString(body.String())
	return []byte(b.String())
}

func renderYear(y int, first time.Time, byDate map[string]DayDigest, open *openTracker) []byte {
	loc := time.UTC
	start := time.Date(y, 1, 1, 0, 0, 0, 0, loc)
	end := time.Date(y, 12, 31, 0, 0, 0, 0, loc)
	var body strings.Builder
	days := gather(&body, start, end, byDate, open, false)
	var b strings.Builder
	b.WriteString(header("year", fmt.Sprintf("%04d", y), start, end, days))
	fmt.Fprintf(&b, "# Year %04d\n\nDays with sessions: %d. Headlines are in the month files. Built by `memhook rollup-days`; edits here are overwritten.\n\n## Months\n\n", y, days)
	firstMonth := time.Date(first.Year(), first.Month(), 1, 0, 0, 0, 0, loc)
	for m := 1; m <= 12; m++ {
		mt := time.Date(y, time.Month(m), 1, 0, 0, 0, 0, loc)
		if mt.Before(firstMonth) {
			fmt.Fprintf(&b, "- [[rollups/month/%s|%s]] · no data (before the first recorded day)\n", mt.Format("2006-01"), mt.Format("2006-01"))
			continue
		}
		n := 0
		for d := mt; d.Month() == mt.Month(); d = d.AddDate(0, 0, 1) {
			if _, ok := byDate[d.Format(time.DateOnly)]; ok {
				n++
			}
		}
		fmt.Fprintf(&b, "- [[rollups/month/%s|%s]] · %d days with sessions\n", mt.Format("2006-01"), mt.Format("2006-01"), n)
	}
	b.WriteString(body.String())
	return []byte(b.String())
}

// RollupNoData records months before the first recorded day as months
// without data (month/YYYY-MM.md with state no-data), so the year they
// belong to can be built once its twelve months have a state. A month
// from the first recorded day on is built from the day files and is
// refused here, as is a month not over yet.
func (s *Store) RollupNoData(months []string, now time.Time) (*RollupResult, error) {
	digests, err := s.readDays()
	if err != nil {
		return nil, err
	}
	loc := time.UTC
	today := dateOf(now.Format(time.DateOnly), loc)
	res := &RollupResult{Written: []string{}, Unchanged: []string{}}
	months, err = expandMonths(months)
	if err != nil {
		return nil, err
	}
	for _, arg := range months {
		m, err := time.ParseInLocation("2006-01", arg, loc)
		if err != nil {
			return nil, fmt.Errorf("rollup-days --no-data: %q is not a month YYYY-MM", arg)
		}
		if !m.AddDate(0, 1, -1).Before(today) {
			return nil, fmt.Errorf("rollup-days --no-data: %s is not over yet", arg)
		}
		if len(digests) > 0 && arg >= digests[0].Date[:7] {
			return nil, fmt.Errorf("rollup-days --no-data: %s is on or after the first recorded day (%s): its roll-up is built from the day files", arg, digests[0].Date)
		}
		rel := monthRel(m)
		p := filepath.Join(s.RollupDir, filepath.FromSlash(rel))
		last := m.AddDate(0, 1, -1)
		text := fmt.Sprintf("---\ntype: rollup-month\nperiod: %s\nfrom: %s\nto: %s\ndays_with_sessions: 0\nstate: no-data\n---\n\n# Month %s\n\nNo data: recorded by a person with `memhook rollup-days --no-data`; the project kept no short-term memory this month.\n",
			arg, m.Format(time.DateOnly), last.Format(time.DateOnly), arg)
		if err := safefs.MkdirAll(filepath.Dir(p)); err != nil {
			return nil, fmt.Errorf("write roll-up %s: %w", rel, err)
		}
		changed, err := s.writeIfChanged(p, []byte(text))
		if err != nil {
			return nil, fmt.Errorf("write roll-up %s: %w", rel, err)
		}
		if changed {
			res.Written = append(res.Written, rel)
		} else {
			res.Unchanged = append(res.Unchanged, rel)
		}
	}
	if len(res.Written) > 0 && s.Dir != "" {
		if fi, err := os.Stat(s.Dir); err == nil && fi.IsDir() {
			if err := s.Log(now, "rollup-days", "recorded months without data: "+strings.Join(res.Written, ", ")); err != nil {
				return nil, err
			}
		}
	}
	return res, nil
}

// expandMonths turns "YYYY-MM" and "YYYY-MM..YYYY-MM" items into months.
func expandMonths(items []string) ([]string, error) {
	var out []string
	for _, it := range items {
		for _, one := range strings.Split(it, ",") {
			one = strings.TrimSpace(one)
			if one == "" {
				continue
			}
			from, to, isRange := strings.Cut(one, "..")
			a, err := time.Parse("2006-01", from)
			if err != nil {
				return nil, fmt.Errorf("rollup-days --no-data: %q is not a month YYYY-MM", from)
			}
			b := a
			if isRange {
				if b, err = time.Parse("2006-01", to); err != nil {
					return nil, fmt.Errorf("rollup-days --no-data: %q is not a month YYYY-MM", to)
				}
			}
			if b.Before(a) || b.Sub(a) > 100*366*24*time.Hour {
				return nil, fmt.Errorf("rollup-days --no-data: %q is not a range of months", one)
			}
			for m := a; !m.After(b); m = m.AddDate(0, 1, 0) {
				out = append(out, m.Format("2006-01"))
			}
		}
	}
	return out, nil
}
