package search

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// DayRange is a run of whole calendar days, both ends included, each day
// held as midnight UTC of its date: the way file names date notes.
type DayRange struct{ From, To time.Time }

// DateQuery is what [ParseDates] found in a query: the day ranges it
// names and the byte spans [start, end) of the words that named them.
type DateQuery struct {
	Ranges []DayRange
	Spans  [][2]int
}

// Rest is query without the date expressions, spaces collapsed.
func (d DateQuery) Rest(query string) string {
	var b strings.Builder
	at := 0
	for _, s := range d.Spans {
		b.WriteString(query[at:s[0]])
		b.WriteByte(' ')
		at = s[1]
	}
	b.WriteString(query[at:])
	return strings.Join(strings.Fields(b.String()), " ")
}

// ParseDates finds the dates and day ranges an English or Russian query
// names, relative ones resolved against now (its calendar day in its own
// location):
//
//   - absolute days: 2023-10-13, 13.10.2023, 13 October 2023, 13th of
//     Oct, October 13, 2023, 13 октября 2023 года, 13-го октября; ISO
//     weeks 2023-W42 and months 2023-10; a month with its year (October
//     2023, в октябре 2023); a month after "in", "during", "в" (in May);
//   - relative: today, yesterday, the day before yesterday, N days /
//     weeks / months / years ago, this / last week, month, year, last
//     weekend, last / past N days, a weekday (Tuesday, last Tuesday);
//     сегодня, вчера, позавчера, N дней назад, неделю назад, на этой /
//     прошлой / позапрошлой неделе, в прошлом месяце, в прошлом году, за
//     последние N дней, в понедельник, в прошлую среду.
//
// A date without a year is the most recent one not after now; a bare
// weekday is the most recent such day up to today, "last" (прошлый) one
// before today. Weeks run Monday to Sunday. Numbers alone (versions like
// 1.10.2, times like 10:13, a bare year, "13.10") and a month name with
// nothing around it ("may" the verb, "March" a name) are not dates, nor
// is a weekday after next, every, by, until, на, каждый (a plan or a
// habit); a month next to a day or a year is, whatever it meant ("Jan 5").
func ParseDates(query string, now time.Time) DateQuery {
	y, m, d := now.Date()
	p := &dateParser{q: query, today: time.Date(y, m, d, 0, 0, 0, 0, time.UTC)}
	p.numeric()
	p.toks = dateTokens(query)
	p.numericPreps()
	for i := 0; i < len(p.toks); {
		if n, r, ok := p.match(i); ok {
			p.found = append(p.found, dateFound{span: [2]int{p.toks[i].start, p.toks[i+n-1].end}, r: r})
			i += n
			continue
		}
		i++
	}
	sort.Slice(p.found, func(a, b int) bool { return p.found[a].span[0] < p.found[b].span[0] })
	var out DateQuery
	for _, f := range p.found {
		out.Spans = append(out.Spans, f.span)
		out.Ranges = append(out.Ranges, f.r)
	}
	return out
}

type dateTok struct {
	w          string // lowercased, ё folded to е
	start, end int
}

// dateTokens splits s into runs of letters and digits with their byte
// offsets, as [Words] does.
func dateTokens(s string) []dateTok {
	var out []dateTok
	var b strings.Builder
	start := -1
	for i, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || (start >= 0 && unicode.Is(unicode.Mn, r)) {
			if start < 0 {
				start = i
			}
			if unicode.Is(unicode.Mn, r) {
				continue
			}
			r = unicode.ToLower(r)
			if r == 'ё' {
				r = 'е'
			}
			b.WriteRune(r)
			continue
		}
		if start >= 0 {
			out = append(out, dateTok{b.String(), start, i})
			b.Reset()
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, dateTok{b.String(), start, len(s)})
	}
	return out
}

type dateFound struct {
	span [2]int
	r    DayRange
}

type dateParser struct {
	q     string
	today time.Time
	toks  []dateTok
	found []dateFound
}

var (
	isoDayRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\d{4})[-/](\d{1,2})[-/](\d{1,2})`) })
	isoWeekRe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\d{4})-[Ww](\d{1,2})`) })
	isoMonthRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\d{4})-(\d{2})`) })
	dottedRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\d{1,2})\.(\d{1,2})\.(\d{4})`) })
)

// numeric finds the all-digit forms. A match touching a letter or digit,
// or continuing a run of numbers (1.13.10.2023, 2023-10-13.5), is part of
// something else: a version, an identifier.
func (p *dateParser) numeric() {
	for _, re := range []*regexp.Regexp{isoDayRe(), isoWeekRe(), isoMonthRe(), dottedRe()} {
		for _, m := range re.FindAllStringSubmatchIndex(p.q, -1) {
			if !p.standsAlone(m[0], m[1]) || p.overlaps(m[0], m[1]) {
				continue
			}
			n := func(k int) int { v, _ := strconv.Atoi(p.q[m[2*k]:m[2*k+1]]); return v }
			var r DayRange
			var ok bool
			switch re {
			case isoDayRe():
				r, ok = dayRange(n(1), n(2), n(3))
			case isoWeekRe():
				r, ok = isoWeek(n(1), n(2))
			case isoMonthRe():
				r, ok = monthRange(n(1), n(2))
			case dottedRe():
				r, ok = dayRange(n(3), n(2), n(1))
			}
			if ok {
				p.found = append(p.found, dateFound{span: [2]int{m[0], m[1]}, r: r})
			}
		}
	}
}

// numericPreps widens a numeric date's span over the preposition before
// it ("on 2023-10-13"), so that the preposition leaves the query with it.
func (p *dateParser) numericPreps() {
	for fi := range p.found {
		for k := range p.toks {
			if p.toks[k].end > p.found[fi].span[0] {
				break
			}
			gap := p.q[p.toks[k].end:p.found[fi].span[0]]
			if datePreps[p.toks[k].w] && gap != "" && strings.TrimSpace(gap) == "" {
				p.found[fi].span[0] = p.toks[k].start
			}
		}
	}
}

func (p *dateParser) standsAlone(start, end int) bool {
	if start > 0 {
		r, n := utf8.DecodeLastRuneInString(p.q[:start])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
		if r2, _ := utf8.DecodeLastRuneInString(p.q[:start-n]); (r == '.' || r == '-') && unicode.IsDigit(r2) {
			return false
		}
	}
	if end < len(p.q) {
		r, n := utf8.DecodeRuneInString(p.q[end:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
		if r2, _ := utf8.DecodeRuneInString(p.q[end+n:]); strings.ContainsRune(".-/:", r) && unicode.IsDigit(r2) {
			return false
		}
	}
	return true
}

func (p *dateParser) overlaps(start, end int) bool {
	for _, f := range p.found {
		if start < f.span[1] && f.span[0] < end {
			return true
		}
	}
	return false
}

// w is token k's word, "" past the end or inside a date already found.
func (p *dateParser) w(k int) string {
	if k < 0 || k >= len(p.toks) || p.overlaps(p.toks[k].start, p.toks[k].end) {
		return ""
	}
	return p.toks[k].w
}

// joined reports whether tokens k and k+1 are words of one phrase:
// separated by spaces and at most one comma, or by a dot right after an
// abbreviated month (Oct. 13).
func (p *dateParser) joined(k int) bool {
	if k+1 >= len(p.toks) {
		return false
	}
	gap := p.q[p.toks[k].end:p.toks[k+1].start]
	if abbrevMonth[p.toks[k].w] {
		gap = strings.TrimPrefix(gap, ".")
	}
	return strings.TrimSpace(strings.Replace(gap, ",", "", 1)) == ""
}

// seq reports whether tokens k..k+len(words)-1 are joined and spell words
// ("" matches any word).
func (p *dateParser) seq(k int, words ...string) bool {
	for i, want := range words {
		got := p.w(k + i)
		if got == "" || (want != "" && got != want) || (i > 0 && !p.joined(k+i-1)) {
			return false
		}
	}
	return true
}

// match tries a date expression at token i, an optional preposition
// first; it returns how many tokens it spans.
func (p *dateParser) match(i int) (int, DayRange, bool) {
	if w := p.w(i); datePreps[w] && p.joined(i) {
		if n, r, ok := p.expr(i+1, w); ok {
			return n + 1, r, true
		}
	}
	return p.expr(i, "")
}

func (p *dateParser) expr(j int, prep string) (int, DayRange, bool) {
	t := p.today
	w := p.w(j)
	if w == "" {
		return 0, DayRange{}, false
	}
	one := func(d time.Time) DayRange { return DayRange{d, d} }
	switch w {
	case "today", "сегодня":
		return 1, one(t), true
	case "yesterday", "вчера":
		return 1, one(t.AddDate(0, 0, -1)), true
	case "позавчера":
		return 1, one(t.AddDate(0, 0, -2)), true
	case "the":
		if p.seq(j, "the", "day", "before", "yesterday") {
			return 4, one(t.AddDate(0, 0, -2)), true
		}
		return 0, DayRange{}, false
	case "day":
		if p.seq(j, "day", "before", "yesterday") {
			return 3, one(t.AddDate(0, 0, -2)), true
		}
	}
	if n, r, ok := p.ago(j); ok {
		return n, r, true
	}
	if n, r, ok := p.relative(j); ok {
		return n, r, true
	}
	if wd, ok := weekdays[w]; ok && !(notPast[p.w(j-1)] && p.joined(j-1)) {
		return 1, one(lastWeekday(t, wd, true)), true
	}
	return p.calendar(j, prep)
}

// ago reads "N days/weeks/months/years ago" and "N дней назад", also "a
// week ago" and "неделю назад".
func (p *dateParser) ago(j int) (int, DayRange, bool) {
	n, used := 1, 0
	if v, ok := countWord(p.w(j)); ok && p.joined(j) {
		n, used = v, 1
	}
	unit, ok := dateUnits[p.w(j+used)]
	if !ok || !p.joined(j+used) {
		return 0, DayRange{}, false
	}
	ago := p.w(j + used + 1)
	if ago != "ago" && ago != "назад" {
		return 0, DayRange{}, false
	}
	if used == 0 && (ago == "ago" || !unit.bare) {
		return 0, DayRange{}, false
	}
	return used + 2, p.unitBack(unit.unit, n), true
}

// relative reads this/last/past + week, month, year, weekend, weekday,
// "last N days", and their Russian forms.
func (p *dateParser) relative(j int) (int, DayRange, bool) {
	w := p.w(j)
	back := -1
	switch {
	case w == "last" || w == "past" || w == "previous":
		back = 1
	case w == "this" || w == "эта" || w == "эту" || w == "этой" || w == "этот" || w == "этом":
		back = 0
	case strings.HasPrefix(w, "позапрошл"):
		back = 2
	case strings.HasPrefix(w, "прошл"):
		back = 1
	case strings.HasPrefix(w, "последн"):
		back = 1
	}
	if back < 0 || !p.joined(j) {
		return 0, DayRange{}, false
	}
	t := p.today
	next := p.w(j + 1)
	if n, ok := countWord(next); ok && back == 1 && p.joined(j+1) {
		if u, ok := dateUnits[p.w(j+2)]; ok && u.unit == "day" && n > 0 {
			return 3, DayRange{t.AddDate(0, 0, -n+1), t}, true
		}
	}
	if wd, ok := weekdays[next]; ok {
		if back == 0 {
			return 2, DayRange{lastWeekday(t, wd, true), lastWeekday(t, wd, true)}, true
		}
		d := lastWeekday(t, wd, false).AddDate(0, 0, -7*(back-1))
		return 2, DayRange{d, d}, true
	}
	if next == "weekend" || strings.HasPrefix(next, "выходн") {
		if back == 0 {
			return 0, DayRange{}, false
		}
		sun := lastWeekday(t, time.Sunday, false).AddDate(0, 0, -7*(back-1))
		return 2, DayRange{sun.AddDate(0, 0, -1), sun}, true
	}
	u, ok := dateUnits[next]
	if !ok || u.unit == "day" || strings.HasPrefix(w, "последн") {
		return 0, DayRange{}, false
	}
	if w == "past" && back == 1 && u.unit == "week" {
		return 2, DayRange{t.AddDate(0, 0, -6), t}, true
	}
	r := p.unitBack(u.unit, back)
	if back == 0 && r.To.After(t) {
		r.To = t
	}
	return 2, r, true
}

// unitBack is the day, calendar week, month or year n units before today.
func (p *dateParser) unitBack(unit string, n int) DayRange {
	t := p.today
	switch unit {
	case "week":
		mon := t.AddDate(0, 0, -((int(t.Weekday())+6)%7)-7*n)
		return DayRange{mon, mon.AddDate(0, 0, 6)}
	case "month":
		first := time.Date(t.Year(), t.Month()-time.Month(n), 1, 0, 0, 0, 0, time.UTC)
		return DayRange{first, first.AddDate(0, 1, -1)}
	case "year":
		return DayRange{time.Date(t.Year()-n, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(t.Year()-n, 12, 31, 0, 0, 0, 0, time.UTC)}
	}
	d := t.AddDate(0, 0, -n)
	return DayRange{d, d}
}

// calendar reads day-month-year in either order, month-year, and a month
// alone after "in" or "в".
func (p *dateParser) calendar(j int, prep string) (int, DayRange, bool) {
	// 13 October [2023], 13th of October, 13-го октября
	if day, ok := dayNumber(p.w(j)); ok {
		k := j
		if ruOrdinal[p.w(k+1)] && p.q[p.toks[k].end:p.toks[k+1].start] == "-" {
			k++
		}
		if !p.joined(k) {
			return 0, DayRange{}, false
		}
		k++
		if p.w(k) == "of" {
			if !p.joined(k) {
				return 0, DayRange{}, false
			}
			k++
		}
		mo, ok := monthWord(p.w(k))
		if !ok {
			return 0, DayRange{}, false
		}
		return p.withYear(j, k+1, func(y int) (DayRange, bool) { return dayRange(y, mo, day) })
	}
	mo, ok := monthWord(p.w(j))
	if !ok || (!p.joined(j) && !monthPreps[prep]) {
		return 0, DayRange{}, false
	}
	// October 13[, 2023]
	if day, ok := dayNumber(p.w(j + 1)); ok && p.joined(j) {
		return p.withYear(j, j+2, func(y int) (DayRange, bool) { return dayRange(y, mo, day) })
	}
	// October 2023, октябрь 2023 года
	if y, ok := yearNumber(p.w(j + 1)); ok && p.joined(j) {
		r, ok := monthRange(y, int(mo))
		return 2 + p.yearWord(j+1), r, ok
	}
	if monthPreps[prep] {
		y := p.today.Year()
		if mo > int(p.today.Month()) {
			y--
		}
		r, _ := monthRange(y, mo)
		return 1, r, true
	}
	return 0, DayRange{}, false
}

// withYear finishes a day and month from token j, the year at token k
// when there is one, else the most recent such day not after today.
func (p *dateParser) withYear(j, k int, at func(y int) (DayRange, bool)) (int, DayRange, bool) {
	if y, ok := yearNumber(p.w(k)); ok && p.joined(k-1) {
		r, ok := at(y)
		return k - j + 1 + p.yearWord(k), r, ok
	}
	for y := p.today.Year(); y > p.today.Year()-8; y-- {
		if r, ok := at(y); ok && !r.From.After(p.today) {
			return k - j, r, true
		}
	}
	return 0, DayRange{}, false
}

// yearWord is 1 when the token after year token k is "года", "год" or "г".
func (p *dateParser) yearWord(k int) int {
	switch p.w(k + 1) {
	case "года", "год", "году", "г":
		if p.joined(k) {
			return 1
		}
	}
	return 0
}
