package blackbox

import (
	"fmt"
	"math/big"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/recall/tables"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// The owner's money question — "Сколько мы заработали денег в мае–августе?
// Дай ответ с детализацией" — asks what was earned: income less expenses,
// month by month, both columns shown. The two tables are found by the
// fixed dictionary of breakdown.go (доходы, выручка, income, revenue …;
// расходы, траты, expenses, costs …). A row whose key names a month
// ("доход за май") is dated by it, in the year of the row's own time (the
// latest such month by then); rows that still have no date, or fall
// outside the period, are counted and said, and a question whose rows all
// lack dates is answered with why, never with none.

// netCues are the words that ask what was earned rather than what came in.
var netCues = []string{"заработ", "прибыл", "чист", "profit", "earn"}

// netAsked reports whether a question asks for income less expenses: a
// word of earning or profit, the word "net", or both income and expenses
// named.
func netAsked(q string) bool {
	income, expense := false, false
	for _, w := range textan.Words(q) {
		if w == "net" {
			return true
		}
		for _, c := range netCues {
			if strings.HasPrefix(w, c) {
				return true
			}
		}
		income = income || hasAny(w, conceptWords["income"])
		expense = expense || hasAny(w, conceptWords["expense"])
	}
	return income && expense
}

func isConcept(table, concept string) bool { return tables.Named(conceptTables[concept], table) }

// moneyTables are the income and expenses tables of a net question; nil
// when the question does not ask for net or either table is missing.
// A table the question names itself wins over another of the dictionary.
func moneyTables(all []tables.TableInfo, q string, direct []string) (inc, exp *tables.TableInfo) {
	if !netAsked(q) {
		return nil, nil
	}
	pick := func(concept string) *tables.TableInfo {
		var p *tables.TableInfo
		for i := range all {
			t := &all[i]
			if !isConcept(t.Name, concept) {
				continue
			}
			if p == nil || tables.Named(direct, t.Name) && !tables.Named(direct, p.Name) {
				p = t
			}
		}
		return p
	}
	return pick("income"), pick("expense")
}

// questionYear is the year a question names, 0 when none.
func questionYear(q string) int {
	y := 0
	if s := yearWord.FindString(q); s != "" {
		fmt.Sscan(s, &y)
	}
	return y
}

// period is the breakdown's period: the calendar parameter, else the
// months the question names.
func (b *Box) period(req RecallRequest, now time.Time) (span, string, bool) {
	if req.Scope.Calendar != "" {
		p, _ := parseCalendar(req.Scope.Calendar)
		return p, req.Scope.Calendar, true
	}
	return questionPeriod(req.Query, now)
}

// keyMonth reads the month a row's key names ("доход за май", "May
// bonus", "2026-05"): with the key's own year, else the latest such month
// by the row's time (a row written in June about "май" is this May, one
// written in January about "декабрь" last December), else by the
// question's year or now. Two months in a key are not a date.
func keyMonth(key string, at time.Time, qYear int, now time.Time) (time.Time, bool) {
	if sp, err := parseCalendar(key); err == nil {
		if sp.to.Sub(sp.from) <= 31*24*time.Hour {
			return time.Date(sp.from.Year(), sp.from.Month(), 1, 0, 0, 0, 0, time.UTC), true
		}
		return time.Time{}, false
	}
	var m time.Month
	for _, w := range textan.Words(key) {
		if mm, ok := month(w); ok {
			if m != 0 && mm != m {
				return time.Time{}, false
			}
			m = mm
		}
	}
	if m == 0 {
		return time.Time{}, false
	}
	y := questionYear(key)
	if y == 0 {
		ref := at
		if ref.IsZero() {
			ref = now
			if qYear != 0 {
				ref = time.Date(qYear, 12, 31, 0, 0, 0, 0, time.UTC)
			}
		}
		y = ref.Year()
		if m > ref.Month() {
			y--
		}
	}
	return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC), true
}

// bdRow is one row counted in a breakdown.
type bdRow struct {
	group, when string // when: the row's month, YYYY-MM; "" without a date
	at          time.Time
	fromKey     bool // dated by the month its key names
	side        string
	c           tables.Cell
	v           *big.Rat
}

func (r bdRow) date() string {
	switch {
	case r.c.Calendar != "":
		return r.c.Calendar
	case r.fromKey:
		return r.when + " (from the key)"
	}
	return "—"
}

// collected are the rows of one table's kind a breakdown counts, and what
// it left out.
type collected struct {
	table, kind string
	rows        []bdRow
	leftOut     int           // outside the period or the place, or not a number
	noDate      int           // no calendar and no month in the key, while the question names a period
	undated     []tables.Cell // those rows
	noDateSum   *big.Rat      // what the undated rows that are numbers add up to
	noDateNums  int           // how many of them are numbers
	stated      bool          // every value counted was stated by a person
}

func collect(cells []tables.Cell, kind, op string, req RecallRequest, period span, hasPeriod bool, qYear int, now time.Time) collected {
	col := collected{kind: kind, stated: true, noDateSum: new(big.Rat)}
	for _, c := range cells {
		if c.Kind != kind {
			continue
		}
		col.table = c.Table
		if req.Scope.Geo != "" && !strings.EqualFold(c.Geo, req.Scope.Geo) {
			col.leftOut++
			continue
		}
		r := bdRow{c: c, group: c.Key}
		if c.Calendar != "" {
			if sp, err := parseCalendar(c.Calendar); err == nil {
				r.when, r.at = sp.from.Format("2006-01"), sp.from
			}
		} else if m, ok := keyMonth(c.Key, c.At, qYear, now); ok {
			r.when, r.at, r.fromKey = m.Format("2006-01"), m, true
		}
		var v *big.Rat
		if op != "count" {
			v, _ = parseAmount(c.Value)
		}
		if hasPeriod && r.when == "" {
			col.noDate++
			col.undated = append(col.undated, c)
			if v != nil {
				col.noDateSum.Add(col.noDateSum, v)
				col.noDateNums++
			}
			continue
		}
		if hasPeriod && (r.at.Before(period.from) || !r.at.Before(period.to)) {
			col.leftOut++
			continue
		}
		if hasPeriod {
			r.group = r.when
		}
		if op != "count" {
			if v == nil {
				col.leftOut++
				continue
			}
			r.v = v
		}
		if c.Claim != tables.ClaimStated {
			col.stated = false
		}
		col.rows = append(col.rows, r)
	}
	sort.SliceStable(col.rows, func(i, j int) bool {
		if col.rows[i].when != col.rows[j].when {
			return col.rows[i].when < col.rows[j].when
		}
		return col.rows[i].c.Key < col.rows[j].c.Key
	})
	return col
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// leftOutWords says what the breakdown did not count, for its summary.
func (c collected) leftOutWords() string {
	var parts []string
	if c.noDate > 0 {
		w := plural(c.noDate, "row", "rows") + " without a date"
		if c.noDateNums > 0 {
			w += " (together " + fmtRat(c.noDateSum) + ")"
		}
		parts = append(parts, w)
	}
	if c.leftOut > 0 {
		parts = append(parts, plural(c.leftOut, "row", "rows")+" outside the period or not a number")
	}
	if len(parts) == 0 {
		return ""
	}
	return " Left out: " + strings.Join(parts, "; ") + "."
}

// why says why no row of a table could be counted.
func (c collected) why(period string) string {
	var parts []string
	if c.noDate > 0 {
		w := fmt.Sprintf("%s no date (no calendar, and no month in the key), so none can be placed in %s", plural(c.noDate, "row has", "rows have"), period)
		if c.noDateNums > 0 {
			w += "; undated they total " + fmtRat(c.noDateSum)
		}
		parts = append(parts, w+" — give each row a calendar (`--calendar YYYY-MM`) or a key naming its month (\"доход за май\")")
	}
	if c.leftOut > 0 {
		parts = append(parts, plural(c.leftOut, "row falls", "rows fall")+" outside the period or the place, or are not numbers")
	}
	return strings.Join(parts, "; ")
}

// undatedSection lists the rows without a date in the document: not in
// any month, but not hidden either.
func (c collected) undatedSection(md *strings.Builder) {
	if len(c.undated) == 0 {
		return
	}
	fmt.Fprintf(md, "\n## Without a date (not counted)\n\n| table | key | value | claim | basis |\n| --- | --- | ---: | --- | --- |\n")
	for _, u := range c.undated {
		fmt.Fprintf(md, "| %s | %s | %s | %s | %s |\n", u.Table, cellText(u.Key), cellText(u.Value), u.Claim, cellText(u.Basis))
	}
}

// netBreakdown answers what was earned: income less expenses per month,
// both columns shown, from the two tables.
func (b *Box) netBreakdown(req RecallRequest, now time.Time, inc, exp *tables.TableInfo) (*Breakdown, error) {
	period, label, hasPeriod := b.period(req, now)
	qy := questionYear(req.Query)
	direct := tables.Words(req.Query)
	side := func(t *tables.TableInfo, name string) (collected, error) {
		cells, err := b.Tables.Cells(t.Name)
		if err != nil {
			return collected{}, err
		}
		kind := "value"
		if t.Shape == tables.ShapeRoot {
			kind = chooseKind(cells, t.Kinds, direct, req.Kind)
		}
		c := collect(cells, kind, "sum", req, period, hasPeriod, qy, now)
		c.table = t.Name
		for i := range c.rows {
			c.rows[i].side = name
		}
		return c, nil
	}
	ci, err := side(inc, "income")
	if err != nil {
		return nil, err
	}
	ce, err := side(exp, "expenses")
	if err != nil {
		return nil, err
	}
	if len(ci.rows)+len(ce.rows)+ci.leftOut+ce.leftOut+ci.noDate+ce.noDate == 0 {
		return nil, nil
	}
	type month struct{ inc, exp *big.Rat }
	groups := map[string]*month{}
	var order []string
	add := func(g string) *month {
		if groups[g] == nil {
			groups[g] = &month{new(big.Rat), new(big.Rat)}
			order = append(order, g)
		}
		return groups[g]
	}
	if hasPeriod {
		for m := period.from; m.Before(period.to); m = m.AddDate(0, 1, 0) {
			add(m.Format("2006-01"))
		}
	}
	rows := append(append([]bdRow{}, ci.rows...), ce.rows...)
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].when < rows[j].when })
	totInc, totExp := new(big.Rat), new(big.Rat)
	for _, r := range rows {
		g := r.when
		if g == "" {
			g = "no date"
		}
		m := add(g)
		if r.side == "income" {
			m.inc.Add(m.inc, r.v)
			totInc.Add(totInc, r.v)
		} else {
			m.exp.Add(m.exp, r.v)
			totExp.Add(totExp, r.v)
		}
	}
	if !hasPeriod {
		sort.Strings(order) // months in order; "no date" sorts after them
	}
	net := new(big.Rat).Sub(totInc, totExp)
	bd := &Breakdown{Table: inc.Name, Kind: ci.kind, Op: "net", Period: label, Total: fmtRat(net), Rows: len(rows),
		LeftOut: ci.leftOut + ce.leftOut, NoDate: ci.noDate + ce.noDate, Stated: ci.stated && ce.stated,
		Income:   &BreakdownSide{Table: inc.Name, Kind: ci.kind, Total: fmtRat(totInc), Rows: len(ci.rows), LeftOut: ci.leftOut, NoDate: ci.noDate},
		Expenses: &BreakdownSide{Table: exp.Name, Kind: ce.kind, Total: fmtRat(totExp), Rows: len(ce.rows), LeftOut: ce.leftOut, NoDate: ce.noDate}}
	if bd.NoDate > 0 {
		bd.NoDateTotal = fmtRat(new(big.Rat).Sub(ci.noDateSum, ce.noDateSum))
	}
	title := "net (income − expenses)"
	if label != "" {
		title += " of " + label
	}
	var md strings.Builder
	fmt.Fprintf(&md, "# %s\n\nComputed by memhook: income from `%s`.`%s` (%d rows) less expenses from `%s`.`%s` (%d rows)",
		title, inc.Name, ci.kind, len(ci.rows), exp.Name, ce.kind, len(ce.rows))
	if bd.LeftOut+bd.NoDate > 0 {
		fmt.Fprintf(&md, " (%d outside the period or not a number, %d without a date: left out)", bd.LeftOut, bd.NoDate)
	}
	md.WriteString(".\n\n| date | table | key | value | claim | basis |\n| --- | --- | --- | ---: | --- | --- |\n")
	for _, r := range rows {
		fmt.Fprintf(&md, "| %s | %s | %s | %s | %s | %s |\n", r.date(), r.c.Table, cellText(r.c.Key), cellText(r.c.Value), r.c.Claim, cellText(r.c.Basis))
	}
	md.WriteString("\n## By month\n\n| month | income | expenses | net |\n| --- | ---: | ---: | ---: |\n")
	var parts []string
	for _, g := range order {
		m := groups[g]
		n := new(big.Rat).Sub(m.inc, m.exp)
		gr := BreakdownRow{Group: g, Value: fmtRat(n), Income: fmtRat(m.inc), Expenses: fmtRat(m.exp)}
		for _, r := range rows {
			if r.when == g || g == "no date" && r.when == "" {
				gr.Rows++
			}
		}
		bd.Groups = append(bd.Groups, gr)
		fmt.Fprintf(&md, "| %s | %s | %s | %s |\n", g, gr.Income, gr.Expenses, gr.Value)
		parts = append(parts, fmt.Sprintf("%s %s (%s − %s)", g, gr.Value, gr.Income, gr.Expenses))
	}
	fmt.Fprintf(&md, "| **total** | **%s** | **%s** | **%s** |\n", bd.Income.Total, bd.Expenses.Total, bd.Total)
	both := collected{undated: append(append([]tables.Cell{}, ci.undated...), ce.undated...)}
	both.undatedSection(&md)
	bd.Markdown = md.String()
	id, _, err := b.Objects().Put([]byte(bd.Markdown), "breakdown.md")
	if err != nil {
		return nil, fmt.Errorf("store breakdown: %w", err)
	}
	bd.Object = id
	left := func(c collected, name string) string {
		if w := c.leftOutWords(); w != "" {
			return strings.Replace(w, "Left out:", "Left out of "+name+":", 1)
		}
		return ""
	}
	if len(rows) == 0 {
		bd.Stated = false
		var why []string
		for _, c := range []struct {
			c    collected
			name string
		}{{ci, "income (" + inc.Name + ")"}, {ce, "expenses (" + exp.Name + ")"}} {
			if w := c.c.why(label); w != "" {
				why = append(why, c.name+": "+w)
			}
		}
		bd.Summary = fmt.Sprintf("%s: no row can be counted; %s. The rows are in the Markdown table %s.", title, strings.Join(why, "; "), id)
		return bd, nil
	}
	last := bd.Groups[len(bd.Groups)-1]
	bd.Summary = fmt.Sprintf("%s: %s = income %s (%s.%s, %s) − expenses %s (%s.%s, %s); by month: %s; the last, %s, %s.%s%s Detail (every row with its basis) in the Markdown table %s.",
		title, bd.Total, bd.Income.Total, inc.Name, ci.kind, plural(len(ci.rows), "row", "rows"), bd.Expenses.Total, exp.Name, ce.kind, plural(len(ce.rows), "row", "rows"),
		strings.Join(parts, ", "), last.Group, last.Value, left(ci, "income"), left(ce, "expenses"), id)
	return bd, nil
}
