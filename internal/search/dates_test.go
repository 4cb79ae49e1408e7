package search

import (
	"testing"
	"time"
)

func day(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC) }

func TestParseDates(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) // a Monday
	one := func(y, m, d int) []DayRange { return []DayRange{{day(y, m, d), day(y, m, d)}} }
	span := func(a, b time.Time) []DayRange { return []DayRange{{a, b}} }
	cases := []struct {
		q    string
		want []DayRange
		rest string
	}{
		// absolute, English
		{"what did we decide on 2023-10-13?", one(2023, 10, 13), "what did we decide ?"},
		{"notes of 2023/10/13", one(2023, 10, 13), "notes of"},
		{"see daily/2026-11-29.md", one(2026, 11, 29), "see daily/ .md"},
		{"13.10.2023 deploy", one(2023, 10, 13), "deploy"},
		{"13 October 2023", one(2023, 10, 13), ""},
		{"on the 13th of October 2023", one(2023, 10, 13), "on the"},
		{"October 13, 2023 painting", one(2023, 10, 13), "painting"},
		{"What did Gina find on 1 February, 2023?", one(2023, 2, 1), "What did Gina find ?"},
		{"October 13th", one(2026, 10, 13), ""},
		{"Oct. 13 release", one(2026, 10, 13), "release"},
		{"13 Oct", one(2026, 10, 13), ""},
		{"on 13 October", one(2026, 10, 13), ""},
		{"31 December", one(2025, 12, 31), ""}, // no year: the most recent not after now
		{"30 November", one(2026, 11, 30), ""},
		{"29 February", one(2024, 2, 29), ""},
		{"October 2023", span(day(2023, 10, 1), day(2023, 10, 31)), ""},
		{"setback in October 2023", span(day(2023, 10, 1), day(2023, 10, 31)), "setback"},
		{"camping in July", span(day(2026, 7, 1), day(2026, 7, 31)), "camping"},
		{"in December", span(day(2025, 12, 1), day(2025, 12, 31)), ""},
		{"during May", span(day(2026, 5, 1), day(2026, 5, 31)), ""},
		{"rollup 2023-W42", span(day(2023, 10, 16), day(2023, 10, 22)), "rollup"},
		{"2023-10 summary", span(day(2023, 10, 1), day(2023, 10, 31)), "summary"},
		// relative, English
		{"what did I do today", one(2026, 11, 30), "what did I do"},
		{"what did I do yesterday", one(2026, 11, 29), "what did I do"},
		{"the day before yesterday", one(2026, 11, 28), ""},
		{"3 days ago", one(2026, 11, 27), ""},
		{"two weeks ago", span(day(2026, 11, 16), day(2026, 11, 22)), ""},
		{"a week ago", span(day(2026, 11, 23), day(2026, 11, 29)), ""},
		{"a month ago", span(day(2026, 10, 1), day(2026, 10, 31)), ""},
		{"last week", span(day(2026, 11, 23), day(2026, 11, 29)), ""},
		{"this week", span(day(2026, 11, 30), day(2026, 11, 30)), ""},
		{"past week", span(day(2026, 11, 24), day(2026, 11, 30)), ""},
		{"last month", span(day(2026, 10, 1), day(2026, 10, 31)), ""},
		{"this month", span(day(2026, 11, 1), day(2026, 11, 30)), ""},
		{"last year", span(day(2025, 1, 1), day(2025, 12, 31)), ""},
		{"last weekend", span(day(2026, 11, 28), day(2026, 11, 29)), ""},
		{"last 3 days", span(day(2026, 11, 28), day(2026, 11, 30)), ""},
		{"on Tuesday", one(2026, 11, 24), ""},
		{"Monday", one(2026, 11, 30), ""},
		{"last Monday", one(2026, 11, 23), ""},
		{"last Friday standup", one(2026, 11, 27), "standup"},
		// absolute, Russian
		{"что мы решили 3 ноября", one(2026, 11, 3), "что мы решили"},
		{"13 октября 2023", one(2023, 10, 13), ""},
		{"13 октября 2023 года деплой", one(2023, 10, 13), "деплой"},
		{"13-го октября", one(2026, 10, 13), ""},
		{"1 декабря", one(2025, 12, 1), ""},
		{"в октябре 2023", span(day(2023, 10, 1), day(2023, 10, 31)), ""},
		{"в октябре 2023 года", span(day(2023, 10, 1), day(2023, 10, 31)), ""},
		{"октябрь 2023", span(day(2023, 10, 1), day(2023, 10, 31)), ""},
		{"в мае", span(day(2026, 5, 1), day(2026, 5, 31)), ""},
		{"в декабре", span(day(2025, 12, 1), day(2025, 12, 31)), ""},
		{"13 окт", one(2026, 10, 13), ""},
		// relative, Russian
		{"сегодня", one(2026, 11, 30), ""},
		{"что было вчера", one(2026, 11, 29), "что было"},
		{"позавчера", one(2026, 11, 28), ""},
		{"5 дней назад", one(2026, 11, 25), ""},
		{"три дня назад", one(2026, 11, 27), ""},
		{"неделю назад", span(day(2026, 11, 23), day(2026, 11, 29)), ""},
		{"месяц назад", span(day(2026, 10, 1), day(2026, 10, 31)), ""},
		{"на прошлой неделе мы решили", span(day(2026, 11, 23), day(2026, 11, 29)), "мы решили"},
		{"на этой неделе", span(day(2026, 11, 30), day(2026, 11, 30)), ""},
		{"на позапрошлой неделе", span(day(2026, 11, 16), day(2026, 11, 22)), ""},
		{"в прошлом месяце", span(day(2026, 10, 1), day(2026, 10, 31)), ""},
		{"в этом месяце", span(day(2026, 11, 1), day(2026, 11, 30)), ""},
		{"в прошлом году", span(day(2025, 1, 1), day(2025, 12, 31)), ""},
		{"за последние 3 дня", span(day(2026, 11, 28), day(2026, 11, 30)), ""},
		{"в понедельник", one(2026, 11, 30), ""},
		{"во вторник", one(2026, 11, 24), ""},
		{"в среду", one(2026, 11, 25), ""},
		{"в прошлый понедельник", one(2026, 11, 23), ""},
		{"в прошлую среду", one(2026, 11, 25), ""},
		{"в прошлое воскресенье", one(2026, 11, 29), ""},
		{"на прошлых выходных", span(day(2026, 11, 28), day(2026, 11, 29)), ""},
		{"Ёлку поставили в пятницу", one(2026, 11, 27), "Ёлку поставили"},
		// two in one query
		{"yesterday and 13 October", []DayRange{{day(2026, 11, 29), day(2026, 11, 29)}, {day(2026, 10, 13), day(2026, 10, 13)}}, "and"},
		// not dates
		{"upgrade to 1.10.2", nil, ""},
		{"v1.10.2023 build", nil, ""},
		{"release 2.13.10.2023", nil, ""},
		{"meeting at 10:13", nil, ""},
		{"at 13:10 the build broke", nil, ""},
		{"13.10 milestone", nil, ""},
		{"we may decide later", nil, ""},
		{"May I ask about the router", nil, ""},
		{"March said hello", nil, ""},
		{"the last version", nil, ""},
		{"page 13 of the report", nil, ""},
		{"build 2023 failed", nil, ""},
		{"commit a828e60", nil, ""},
		{"31 February", nil, ""},
		{"30 февраля", nil, ""},
		{"2023-13-45", nil, ""},
		{"планы на понедельник", nil, ""},
		{"the cron runs every Monday", nil, ""},
		{"ship it by Friday", nil, ""},
		{"next Tuesday", nil, ""},
		{"в следующую среду", nil, ""},
		{"week ago", nil, ""},
		{"days", nil, ""},
	}
	for _, c := range cases {
		got := ParseDates(c.q, now)
		if !sameRanges(got.Ranges, c.want) {
			t.Errorf("%q: ranges %v, want %v", c.q, fmtRanges(got.Ranges), fmtRanges(c.want))
			continue
		}
		if c.want != nil && got.Rest(c.q) != c.rest {
			t.Errorf("%q: rest %q, want %q", c.q, got.Rest(c.q), c.rest)
		}
	}
}

func TestParseDatesUsesNowsOwnDay(t *testing.T) {
	// 01:30 on 1 December in Moscow is still 30 November in UTC: "yesterday" is 30 November
	msk := time.FixedZone("MSK", 3*3600)
	got := ParseDates("yesterday", time.Date(2026, 12, 1, 1, 30, 0, 0, msk))
	if !sameRanges(got.Ranges, []DayRange{{day(2026, 11, 30), day(2026, 11, 30)}}) {
		t.Fatalf("got %v", fmtRanges(got.Ranges))
	}
}

func sameRanges(a, b []DayRange) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].From.Equal(b[i].From) || !a[i].To.Equal(b[i].To) {
			return false
		}
	}
	return true
}

func fmtRanges(rs []DayRange) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.From.Format("2006-01-02")+".."+r.To.Format("2006-01-02"))
	}
	return out
}

// FuzzParseDates checks that any query parses without panicking into
// ordered, disjoint spans inside the query, one range per span, each
// range running forward.
func FuzzParseDates(f *testing.F) {
	for _, s := range []string{"13-го октября 2023 года", "Oct. 13, 2023", "last 3 days", "2023-W42", "1.10.2", "в прошлую среду", "the day before", "13-", "a"} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, q string) {
		d := ParseDates(q, now)
		if len(d.Spans) != len(d.Ranges) {
			t.Fatalf("%d spans, %d ranges", len(d.Spans), len(d.Ranges))
		}
		prev := 0
		for i, s := range d.Spans {
			if s[0] < prev || s[1] <= s[0] || s[1] > len(q) {
				t.Fatalf("span %v in %q", s, q)
			}
			prev = s[1]
			if d.Ranges[i].To.Before(d.Ranges[i].From) {
				t.Fatalf("range %v backwards", fmtRanges(d.Ranges[i:i+1]))
			}
		}
		_ = d.Rest(q)
	})
}
