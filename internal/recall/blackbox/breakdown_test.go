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

	a := recall(t, b, `{"text":"Сколько мы заработали денег в мае–августе? Дай ответ с детализацией."}`)
	if a.DepthUsed != 1 || a.Kind != KindAffirmative {
		t.Fatalf("level 1, affirmative: %+v", a)
	}
	ans, isObj := a.Answer.(map[string]string)
	if !isObj || !strings.HasPrefix(ans["object"], "sha256-") || !strings.Contains(ans["summary"], "5500.5 over 4 rows") || !strings.Contains(ans["summary"], "2026-08, 2000") {
		t.Fatalf("{object, summary}: %#v", a.Answer)
	}
	bd := a.Items[0].Data.(*Breakdown)
	if bd.Table != "dokhody" || bd.Kind != "summa" || bd.Period != "2026-05..2026-08" || bd.NoDate != 1 || bd.LeftOut != 2 || len(bd.Groups) != 4 {
		t.Fatalf("breakdown: %+v", bd)
	}
	path, err := b.Objects().Path(ans["object"])
	if err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(path)
	doc := string(md)
	for _, want := range []string{
		"| 2026-05 | 2 | 2000 |", "| 2026-06 | 1 | 1500.5 |", "| 2026-07 | 0 | 0 |", "| 2026-08 | 1 | 2000 |",
		"| **total** | 4 | **5500.5** |", "| 2026-05-12 | client Alpha | 1 200 руб | stated |",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("the Markdown table lacks %q:\n%s", want, doc)
		}
	}
	if strings.Contains(doc, "999") || strings.Contains(doc, "700") {
		t.Fatalf("rows outside the period or of another table:\n%s", doc)
	}
	// Deterministic: the same rows give the same object.
	if again := recall(t, b, `{"text":"How much did we earn May to August 2026, in detail?"}`); again.Answer.(map[string]string)["object"] != ans["object"] {
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
