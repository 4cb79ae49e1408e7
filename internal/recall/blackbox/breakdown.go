package blackbox

import (
	"fmt"
	"math/big"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/cerebro-mem/cerebro/internal/recall/tables"
	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// Breakdown is an answer computed from table rows: a Markdown document in
// the object store and what it says in short. It is built by memhook
// alone, the same rows giving the same bytes and so the same object id.
type Breakdown struct {
	Object  string         `json:"object"`
	Summary string         `json:"summary"`
	Table   string         `json:"table"`
	Kind    string         `json:"kind"`
	Op      string         `json:"op"`               // sum or count
	Period  string         `json:"period,omitempty"` // FROM..TO, empty for all rows
	Total   string         `json:"total"`
	Rows    int            `json:"rows"`
	Groups  []BreakdownRow `json:"groups"`
	LeftOut int            `json:"left_out,omitempty"` // rows outside the period or without a usable value
	NoDate  int            `json:"no_date,omitempty"`  // rows without a calendar while the question names a period
	// NoDateTotal is what the rows without a date add up to: not in any
	// month of the period, said rather than dropped.
	NoDateTotal string `json:"no_date_total,omitempty"`
	// Income and Expenses are the two tables of a net answer (op "net"):
	// Total is income minus expenses, each group shows both.
	Income   *BreakdownSide `json:"income,omitempty"`
	Expenses *BreakdownSide `json:"expenses,omitempty"`
	Stated   bool           `json:"-"` // every value counted was stated by a person
	Markdown string         `json:"-"`
}

// BreakdownRow is one group: a month, or a key when the rows carry no dates.
type BreakdownRow struct {
	Group    string `json:"group"`
	Rows     int    `json:"rows"`
	Value    string `json:"value"`
	Income   string `json:"income,omitempty"`   // a net answer: the month's income
	Expenses string `json:"expenses,omitempty"` // and its expenses
}

// BreakdownSide is one table of a net answer.
type BreakdownSide struct {
	Table   string `json:"table"`
	Kind    string `json:"kind"`
	Total   string `json:"total"`
	Rows    int    `json:"rows"`
	LeftOut int    `json:"left_out,omitempty"`
	NoDate  int    `json:"no_date,omitempty"`
}

var (
	// Words that ask for an aggregate over rows rather than one value.
	aggregateWords = []string{"how much", "how many", "total", "sum of", "breakdown", "in detail", "detailed", "by month", "per month",
		"сколько", "итог", "сумм", "детализ", "подробн", "по месяц", "разбивк", "в разрезе"}
	countWords = []string{"how many", "count", "number of", "сколько раз", "количеств"}
	// Money questions rarely name the table: "how much did we earn" means
	// the income table. A fixed dictionary, not a guess per question.
	conceptWords = map[string][]string{
		"income":  {"earn", "earned", "income", "revenue", "заработ", "доход", "выручк"},
		"expense": {"spend", "spent", "expense", "expenses", "cost", "costs", "потрат", "расход", "трат"},
	}
	conceptTables = map[string][]string{
		"income":  {"income", "revenue", "earnings", "dokhody", "dokhod", "vyruchka", "zarabotok"},
		"expense": {"expenses", "expense", "spending", "costs", "raskhody", "raskhod", "traty"},
	}
	monthWords = []struct {
		prefix string
		month  time.Month
	}{
		{"январ", 1}, {"феврал", 2}, {"март", 3}, {"апрел", 4}, {"май", 5}, {"мая", 5}, {"мае", 5}, {"маю", 5}, {"маем", 5}, {"июн", 6}, {"июл", 7},
		{"август", 8}, {"сентябр", 9}, {"октябр", 10}, {"ноябр", 11}, {"декабр", 12},
		{"january", 1}, {"february", 2}, {"march", 3}, {"april", 4}, {"may", 5}, {"june", 6}, {"july", 7}, {"august", 8},
		{"september", 9}, {"october", 10}, {"november", 11}, {"december", 12},
		{"jan", 1}, {"feb", 2}, {"apr", 4}, {"jun", 6}, {"jul", 7}, {"aug", 8}, {"sep", 9}, {"sept", 9}, {"oct", 10}, {"nov", 11}, {"dec", 12},
	}
	yearWord = lazyregexp.New(`\b(19|20)\d\d\b`)
	numberRe = lazyregexp.New(`^[^\d\s+-]{0,3}\s*([+-]?\d[\d\s\x{00a0}\x{202f}.,]*)\s*[^\d]{0,12}$`)
)

func hasAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// month reads a month word: Russian by its stem in any case, English by
// the full name or a three-letter abbreviation. "may" is also a verb, so
// it counts only beside another month or a year.
func month(w string) (time.Month, bool) {
	cyr := strings.IndexFunc(w, func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }) >= 0
	for _, m := range monthWords {
		if cyr && strings.HasPrefix(w, m.prefix) && (len([]rune(m.prefix)) > 3 || len([]rune(w)) <= 5 && (m.prefix == "июн" || m.prefix == "июл") || w == m.prefix) {
			return m.month, true
		}
		if !cyr && w == m.prefix {
			return m.month, true
		}
	}
	return 0, false
}

// questionPeriod reads a period of months from a question: one month, or
// the first and last month named ("May–August", "с мая по август"). With
// no year named, it is the most recent such period that has begun by now.
func questionPeriod(q string, now time.Time) (span, string, bool) {
	words := textan.Words(q)
	var ms []time.Month
	mayAt := -1
	for _, w := range words {
		if m, ok := month(w); ok {
			if w == "may" {
				mayAt = len(ms)
			}
			ms = append(ms, m)
		}
	}
	year := 0
	if y := yearWord.FindString(q); y != "" {
		fmt.Sscan(y, &year)
	}
	if mayAt >= 0 && len(ms) == 1 && year == 0 {
		ms = nil // "may" alone is the verb
	}
	if len(ms) == 0 {
		if year != 0 {
			from := time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC)
			return span{from, from.AddDate(1, 0, 0)}, fmt.Sprint(year), true
		}
		return span{}, "", false
	}
	first, last := ms[0], ms[len(ms)-1]
	if year == 0 {
		year = now.Year()
		if first > now.Month() {
			year--
		}
	}
	from := time.Date(year, first, 1, 0, 0, 0, 0, time.UTC)
	toYear := year
	if last < first {
		toYear++
	}
	to := time.Date(toYear, last, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 1, 0)
	label := from.Format("2006-01") + ".." + to.AddDate(0, -1, 0).Format("2006-01")
	if first == last && toYear == year {
		label = from.Format("2006-01")
	}
	return span{from, to}, label, true
}

// parseAmount reads a number with an optional currency sign before it and
// a unit after it ("1 200 руб", "$1,200.50", "1200"); anything else —
// words around digits, two numbers — is not an amount.
func parseAmount(v string) (*big.Rat, bool) {
	m := numberRe.FindStringSubmatch(strings.TrimSpace(v))
	if m == nil {
		return nil, false
	}
	n := strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '\u00a0' || r == '\u202f' {
			return -1
		}
		return r
	}, m[1])
	n = strings.TrimRight(n, ".,")
	dot, comma := strings.LastIndex(n, "."), strings.LastIndex(n, ",")
	switch {
	case dot >= 0 && comma >= 0: // the later one is the decimal mark
		if dot > comma {
			n = strings.ReplaceAll(n, ",", "")
		} else {
			n = strings.ReplaceAll(strings.ReplaceAll(n, ".", ""), ",", ".")
		}
	case comma >= 0:
		if commaThousands.MatchString(n) {
			n = strings.ReplaceAll(n, ",", "")
		} else if strings.Count(n, ",") == 1 {
			n = strings.Replace(n, ",", ".", 1)
		} else {
			return nil, false
		}
	case strings.Count(n, ".") > 1:
		if !dotThousands.MatchString(n) {
			return nil, false
		}
		n = strings.ReplaceAll(n, ".", "")
	}
	r, ok := new(big.Rat).SetString(n)
	return r, ok
}

func fmtRat(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	s := r.FloatString(2)
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

// breakdown answers a question asking for an aggregate over table rows; it
// returns nil when the question asks for none or no table is named. A
// money question about what was earned, with both an income and an
// expenses table, is answered net (money.go).
func (b *Box) breakdown(req RecallRequest, now time.Time) (*Breakdown, error) {
	lq := strings.ToLower(req.Query)
	if b.Tables == nil || !hasAny(lq, aggregateWords) {
		return nil, nil
	}
	words := tables.Words(req.Query)
	direct := words
	for concept, cues := range conceptWords {
		if hasAny(lq, cues) {
			words = append(words, conceptTables[concept]...)
		}
	}
	all, err := b.Tables.Describe()
	if err != nil {
		return nil, err
	}
	if req.Table == "" {
		if inc, exp := moneyTables(all, req.Query, direct); inc != nil && exp != nil {
			return b.netBreakdown(req, now, inc, exp)
		}
	}
	var pick *tables.TableInfo
	for i := range all {
		t := &all[i]
		if req.Table != "" {
			if n, _ := tables.Normalize(req.Table); n != t.Name {
				continue
			}
		} else if !tables.Named(words, t.Name) {
			continue
		}
		if pick == nil || tables.Named(direct, t.Name) && !tables.Named(direct, pick.Name) {
			pick = t
		}
	}
	if pick == nil {
		return nil, nil
	}
	cells, err := b.Tables.Cells(pick.Name)
	if err != nil {
		return nil, err
	}
	kind := "value"
	if pick.Shape == tables.ShapeRoot {
		kind = chooseKind(cells, pick.Kinds, words, req.Kind)
		if kind == "" {
			return nil, nil
		}
	}
	bd := &Breakdown{Table: pick.Name, Kind: kind, Op: "sum", Stated: true}
	if hasAny(lq, countWords) {
		bd.Op = "count"
	}
	period, label, hasPeriod := b.period(req, now)
	bd.Period = label
	col := collect(cells, kind, bd.Op, req, period, hasPeriod, questionYear(req.Query), now)
	rows := col.rows
	bd.LeftOut, bd.NoDate, bd.Stated = col.leftOut, col.noDate, col.stated
	if len(rows) == 0 && bd.LeftOut+bd.NoDate == 0 {
		return nil, nil
	}
	byMonth := hasPeriod
	total := new(big.Rat)
	groups := map[string]*BreakdownRow{}
	sums := map[string]*big.Rat{}
	var order []string
	if byMonth { // every month of the period, empty ones too
		for m := period.from; m.Before(period.to); m = m.AddDate(0, 1, 0) {
			g := m.Format("2006-01")
			groups[g], sums[g] = &BreakdownRow{Group: g}, new(big.Rat)
			order = append(order, g)
		}
	}
	for _, r := range rows {
		g := groups[r.group]
		if g == nil {
			g = &BreakdownRow{Group: r.group}
			groups[r.group], sums[r.group] = g, new(big.Rat)
			order = append(order, r.group)
		}
		g.Rows++
		if r.v != nil {
			sums[r.group].Add(sums[r.group], r.v)
			total.Add(total, r.v)
		}
	}
	if !byMonth {
		sort.Strings(order)
	}
	bd.Rows = len(rows)
	bd.Total = fmtRat(total)
	if bd.Op == "count" {
		bd.Total = fmt.Sprint(len(rows))
	}
	var md strings.Builder
	title := pick.Name + "." + kind
	if label != "" {
		title += ", " + label
	}
	fmt.Fprintf(&md, "# %s of %s\n\nComputed by memhook from the table `%s`, kind `%s`: %d rows", bd.Op, title, pick.Name, kind, len(rows))
	if bd.LeftOut+bd.NoDate > 0 {
		fmt.Fprintf(&md, " (%d outside the period or not a number, %d without a date: left out)", bd.LeftOut, bd.NoDate)
	}
	md.WriteString(".\n\n| date | key | value | claim | basis |\n| --- | --- | ---: | --- | --- |\n")
	for _, r := range rows {
		fmt.Fprintf(&md, "| %s | %s | %s | %s | %s |\n", r.date(), cellText(r.c.Key), cellText(r.c.Value), r.c.Claim, cellText(r.c.Basis))
	}
	head := "month"
	if !byMonth {
		head = "key"
	}
	fmt.Fprintf(&md, "\n## By %s\n\n| %s | rows | %s |\n| --- | ---: | ---: |\n", head, head, bd.Op)
	var parts []string
	for _, g := range order {
		gr := groups[g]
		gr.Value = fmtRat(sums[g])
		if bd.Op == "count" {
			gr.Value = fmt.Sprint(gr.Rows)
		}
		bd.Groups = append(bd.Groups, *gr)
		fmt.Fprintf(&md, "| %s | %d | %s |\n", cellText(g), gr.Rows, gr.Value)
		parts = append(parts, g+" "+gr.Value)
	}
	fmt.Fprintf(&md, "| **total** | %d | **%s** |\n", len(rows), bd.Total)
	col.undatedSection(&md)
	bd.Markdown = md.String()
	id, _, err := b.Objects().Put([]byte(bd.Markdown), "breakdown.md")
	if err != nil {
		return nil, fmt.Errorf("store breakdown: %w", err)
	}
	bd.Object = id
	switch {
	case len(rows) == 0:
		// Rows exist, none can be counted: the answer says why, never none.
		bd.Stated = false
		bd.Summary = fmt.Sprintf("%s of %s: no row can be counted; %s. The rows are in the Markdown table %s.", bd.Op, title, col.why(label), id)
	default:
		last := bd.Groups[len(bd.Groups)-1]
		bd.Summary = fmt.Sprintf("%s of %s: %s over %s; by %s: %s; the last, %s, %s.%s Detail (every row with its basis) in the Markdown table %s.",
			bd.Op, title, bd.Total, plural(len(rows), "row", "rows"), head, strings.Join(parts, ", "), last.Group, last.Value, col.leftOutWords(), id)
		if net := netAsked(req.Query); net && pick.Shape == tables.ShapeRoot && isConcept(pick.Name, "income") {
			bd.Summary += " No expenses table was found, so this is income, not what was earned net."
		}
	}
	return bd, nil
}

// chooseKind picks the kind to aggregate: the one the question or the
// caller names, else the kind with the most numeric values.
func chooseKind(cells []tables.Cell, kinds, words []string, want string) string {
	if want != "" {
		n, _ := tables.Normalize(want)
		return n
	}
	for _, k := range kinds {
		if tables.Named(words, k) {
			return k
		}
	}
	best, most := "", 0
	count := map[string]int{}
	for _, c := range cells {
		if _, ok := parseAmount(c.Value); ok {
			count[c.Kind]++
		}
	}
	for _, k := range kinds {
		if count[k] > most {
			best, most = k, count[k]
		}
	}
	return best
}

// cellText keeps a value inside its Markdown cell.
func cellText(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ").Replace(s)
}

// Numbers grouped in thousands: "1,234,567" and "1.234.567".
var (
	commaThousands = lazyregexp.New(`^[+-]?\d{1,3}(,\d{3})+$`)
	dotThousands   = lazyregexp.New(`^[+-]?\d{1,3}(\.\d{3})+$`)
)
