package blackbox

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestBreakdownMayToAugustIsAnObject(t *testing.T) {
	b := newBox(t)
	for _, r := range []struct{ key, value, cal string }{
		{"client Alpha", "1 200 руб", "2026-05-12"},
		{"client Beta", "800", "2026-05-20"},
		{"client Alpha", "1,500.50", "2026-06-03"},
		{"client Gamma", "2000", "2026-08-15"},
		{"client Beta", "300", "2026-04-30"},  // before the period
		{"client Alpha", "999", "2026-09-01"}, // after it
		{"client Delta", "450", ""},           // no date: left out, and said
	} {
		js := `{"text":"income ` + r.key + `","table":"доходы","key":"` + r.key + `","kind":"сумма","value":"` + r.value + `"`
		if r.cal != "" {
			js += `,"calendar":"` + r.cal + `"`
		}
		remember(t, b, js+`}`)
	}
	remember(t, b, `{"text":"rent","table":"расходы","key":"rent","kind":"сумма","value":"700","calendar":"2026-06-01"}`)

	// Income alone, when the question asks for income.
	a := recall(t, b, `{"text":"Какой доход в мае–августе? Дай ответ с детализацией."}`)
	if a.DepthUsed != 1 || a.Kind != KindAffirmative {
		t.Fatalf("level 1, affirmative: %+v", a)
	}
	ans, isObj := a.Answer.(map[string]string)
	if !isObj || !strings.HasPrefix(ans["object"], "sha256-") || !strings.Contains(ans["summary"], "5500.5 over 4 rows") || !strings.Contains(ans["summary"], "2026-08, 2000") ||
		!strings.Contains(ans["summary"], "Left out: 1 row without a date (together 450); 2 rows outside the period") {
		t.Fatalf("{object, summary}: %#v", a.Answer)
	}
	bd := a.Items[0].Data.(*Breakdown)
	if bd.Table != "dokhody" || bd.Kind != "summa" || bd.Op != "sum" || bd.Period != "2026-05..2026-08" || bd.NoDate != 1 || bd.LeftOut != 2 || len(bd.Groups) != 4 || bd.NoDateTotal != "" {
		t.Fatalf("breakdown: %+v", bd)
	}
	doc := objectText(t, b, ans["object"])
	for _, want := range []string{
		"| 2026-05 | 2 | 2000 |", "| 2026-06 | 1 | 1500.5 |", "| 2026-07 | 0 | 0 |", "| 2026-08 | 1 | 2000 |",
		"| **total** | 4 | **5500.5** |", "| 2026-05-12 | client Alpha | 1 200 руб | stated |",
		"## Without a date (not counted)", "| dokhody | client Delta | 450 |",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("the Markdown table lacks %q:\n%s", want, doc)
		}
	}
	if strings.Contains(doc, "999") || strings.Contains(doc, "700") {
		t.Fatalf("rows outside the period or of another table:\n%s", doc)
	}

	// The owner's question is what was earned: income less expenses, per
	// month, both columns shown.
	n := recall(t, b, `{"text":"Сколько мы заработали денег в мае–августе? Дай ответ с детализацией."}`)
	nbd, ok := n.Items[0].Data.(*Breakdown)
	if !ok || n.DepthUsed != 1 || n.Kind != KindAffirmative || nbd.Op != "net" || nbd.Total != "4800.5" || nbd.Income.Total != "5500.5" || nbd.Expenses.Total != "700" ||
		nbd.Expenses.Table != "raskhody" || len(nbd.Groups) != 4 || nbd.Groups[1] != (BreakdownRow{Group: "2026-06", Rows: 2, Value: "800.5", Income: "1500.5", Expenses: "700"}) {
		t.Fatalf("net: %+v", n)
	}
	sum := n.Answer.(map[string]string)["summary"]
	if !strings.Contains(sum, "4800.5 = income 5500.5 (dokhody.summa, 4 rows) − expenses 700 (raskhody.summa, 1 row)") || !strings.Contains(sum, "2026-06 800.5 (1500.5 − 700)") ||
		!strings.Contains(sum, "Left out of income: 1 row without a date (together 450)") {
		t.Fatalf("the summary names both sides and what was left out: %s", sum)
	}
	ndoc := objectText(t, b, nbd.Object)
	for _, want := range []string{"| month | income | expenses | net |", "| 2026-06 | 1500.5 | 700 | 800.5 |", "| 2026-07 | 0 | 0 | 0 |",
		"| **total** | **5500.5** | **700** | **4800.5** |", "| 2026-06-01 | raskhody | rent | 700 | stated |"} {
		if !strings.Contains(ndoc, want) {
			t.Errorf("the net document lacks %q:\n%s", want, ndoc)
		}
	}
	// Deterministic: the same rows give the same object.
	if again := recall(t, b, `{"text":"How much did we earn May to August 2026, in detail?"}`); again.Answer.(map[string]string)["object"] != nbd.Object {
		t.Fatalf("same rows, same object: %#v", again.Answer)
	}
	// Counting by key when the question names no period.
	c := recall(t, b, `{"text":"how many доходы by client?"}`)
	cb := c.Items[0].Data.(*Breakdown)
	if cb.Op != "count" || cb.Total != "7" || cb.Groups[0].Group != "client Alpha" || cb.Groups[0].Value != "3" {
		t.Fatalf("count by key: %+v", cb)
	}
	// A question for one value is still a lookup.
	if one := recall(t, b, `{"text":"доходы client Gamma"}`); one.DepthUsed != 1 || one.Items[0].Object != "" {
		t.Fatalf("lookup: %+v", one)
	}
}

func TestQuestionPeriodAndAmounts(t *testing.T) {
	now := time.Date(2027, 2, 10, 0, 0, 0, 0, time.UTC)
	for q, want := range map[string]string{
		"с мая по август":              "2026-05..2026-08", // the most recent May–August that has begun
		"в январе":                     "2027-01",
		"в июне":                       "2026-06",
		"с июля по август":             "2026-07..2026-08",
		"May–August 2025":              "2025-05..2025-08",
		"may we see the total":         "",
		"how much in november–january": "2026-11..2027-01",
	} {
		_, got, _ := questionPeriod(q, now)
		if got != want {
			t.Errorf("%q: %q, want %q", q, got, want)
		}
	}
	for in, want := range map[string]string{"1 200 руб": "1200", "$1,200.50": "1200.5", "1.234.567": "1234567", "12,5": "12.5", "-3": "-3", "€ 10": "10"} {
		r, ok := parseAmount(in)
		if !ok || fmtRat(r) != want {
			t.Errorf("parseAmount(%q) = %v %v, want %s", in, r, ok, want)
		}
	}
	for _, in := range []string{"3 cats and 4 dogs", "call me", "12 of 15"} {
		if _, ok := parseAmount(in); ok {
			t.Errorf("parseAmount(%q) must refuse", in)
		}
	}
}

func objectText(t *testing.T, b *Box, id string) string {
	t.Helper()
	path, err := b.Objects().Path(id)
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(md)
}

// A month named in a key is a period: "доход за май", key "май", is this
// May by the row's own time; rows without any date are counted and said,
// and a question whose rows all lack dates is answered with why.
func TestMoneyByMonthKeys(t *testing.T) {
	b := newBox(t)
	for _, r := range []struct{ table, key, value string }{
		{"доходы", "май", "1000"}, {"доходы", "июнь", "1200"}, {"доходы", "август 2025", "5000"},
		{"расходы", "май", "300"}, {"расходы", "июль", "100"},
	} {
		remember(t, b, `{"text":"`+r.table+` за `+r.key+`","table":"`+r.table+`","key":"`+r.key+`","kind":"сумма","value":"`+r.value+`"}`)
	}
	a := recall(t, b, `{"text":"Сколько мы заработали денег в мае–августе? Дай ответ с детализацией"}`)
	bd, ok := a.Items[0].Data.(*Breakdown)
	if !ok || a.Kind != KindAffirmative || bd.Op != "net" || bd.Total != "1800" || bd.LeftOut != 1 || bd.NoDate != 0 ||
		bd.Groups[0] != (BreakdownRow{Group: "2026-05", Rows: 2, Value: "700", Income: "1000", Expenses: "300"}) || bd.Groups[2].Value != "-100" {
		t.Fatalf("months from the keys, August 2025 outside: %+v %+v", a, bd)
	}
	if doc := objectText(t, b, bd.Object); !strings.Contains(doc, "| 2026-05 (from the key) | dokhody | май | 1000 |") {
		t.Fatalf("the document says the date came from the key:\n%s", doc)
	}

	c := newBox(t)
	remember(t, c, `{"text":"доход от Альфы","table":"доходы","key":"Альфа","kind":"сумма","value":"1000"}`)
	remember(t, c, `{"text":"доход от Беты","table":"доходы","key":"Бета","kind":"сумма","value":"250"}`)
	none := recall(t, c, `{"text":"Сколько мы заработали денег в мае–августе? Дай ответ с детализацией"}`)
	nb, ok := none.Items[0].Data.(*Breakdown)
	sum, _ := none.Answer.(map[string]string)
	if !ok || none.Kind == KindNone || none.Kind == KindAffirmative || nb.Rows != 0 || nb.NoDate != 2 ||
		!strings.Contains(sum["summary"], "no row can be counted; 2 rows have no date (no calendar, and no month in the key), so none can be placed in 2026-05..2026-08; undated they total 1250") ||
		!strings.Contains(none.Report[0].Note, "2 rows without a date left out") {
		t.Fatalf("rows without dates are answered with why, never none: %+v", none)
	}
	// With an income table alone, "earned" is said to be income, not net.
	remember(t, c, `{"text":"доход за май","table":"доходы","key":"за май","kind":"сумма","value":"400"}`)
	inc := recall(t, c, `{"text":"Сколько мы заработали в мае?"}`)
	if s := inc.Answer.(map[string]string)["summary"]; !strings.Contains(s, "sum of dokhody.summa, 2026-05: 400 over 1 row;") || !strings.Contains(s, "No expenses table was found, so this is income, not what was earned net") ||
		!strings.Contains(s, "Left out: 2 rows without a date (together 1250)") {
		t.Fatalf("income alone: %s", s)
	}
}
