package search

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// datedMemory plants a short-term memory where, for each question, the
// day it names holds the answer and another day matches its words better.
// now (shared with the other tests) is Monday 30 November 2026.
func datedMemory(t *testing.T) (*Index, string) {
	t.Helper()
	dir := t.TempDir()
	daily := func(name, body string) {
		day := strings.TrimSuffix(filepath.Base(name), ".md")
		write(t, filepath.Join(dir, name), "---\ntype: daily\ndate: "+day+"\nproject: p\n---\n\n# "+day+"\n\n## 10:00–11:00 · session 8f825584 · auto\n\n"+body)
	}
	daily("daily/_archive/2026-10-13.md", "### Decided\n- Keep the router on the old firmware.\n")
	daily("daily/2026-11-29.md", "### Decided\n- Router firmware: the router gets the new firmware, router config decided.\n")
	daily("daily/2026-11-03.md", "### Decided\n- Решили оставить роутер на старой прошивке.\n")
	daily("daily/2026-11-28.md", "### Decided\n- Роутер: решили обновить прошивку роутера, роутер перезагрузить, решение принято.\n")
	daily("daily/2026-11-27.md", "### Done\n- Dashboards dashboards reviewed again, dashboards fixed.\n")
	write(t, filepath.Join(dir, "rollups", "week", "2026-W47.md"), "# Week 47\n\n- Dashboards reviewed with the team.\n")
	return indexed(t, t.TempDir(), Root{Dir: dir, Kind: KindShort}, Params{}), dir
}

func TestDateRanksNamedDayFirst(t *testing.T) {
	ix, _ := datedMemory(t)
	cases := []struct {
		q, want string
		alone   bool // the query's words alone find the day (its date is in the file's heading)
	}{
		{"what did we decide about the router on 13 October?", "2026-10-13.md", true},
		{"what did we decide about the router last month?", "2026-10-13.md", false},
		{"router firmware in October", "2026-10-13.md", false},
		{"что мы решили по роутеру 3 ноября", "2026-11-03.md", false},
		{"роутер прошивка 3.11.2026", "2026-11-03.md", false},
		{"dashboards on 18 November", "2026-W47.md", false}, // the week's roll-up covers the day
	}
	for _, c := range cases {
		o := defaults()
		r, err := Search(context.Background(), []*Index{ix}, c.q, o)
		if err != nil {
			t.Fatal(err)
		}
		got := paths(r)
		if len(got) == 0 || !strings.HasSuffix(got[0], c.want) {
			t.Errorf("%q: %v, want %s first", c.q, got, c.want)
		}
		if c.alone {
			continue
		}
		// the same query with dates unread ranks the better lexical match first
		o.DateBoost = -1
		r, _ = Search(context.Background(), []*Index{ix}, c.q, o)
		if got := paths(r); len(got) > 0 && strings.HasSuffix(got[0], c.want) {
			t.Errorf("%q without dates: %v, the named day should not lead on its words alone", c.q, got)
		}
	}
}

func TestDateOnlyQueryListsThatDay(t *testing.T) {
	ix, _ := datedMemory(t)
	cases := []struct {
		q    string
		want []string
	}{
		{"what happened on 3 November?", []string{"daily/2026-11-03.md"}},
		{"что было вчера", []string{"daily/2026-11-29.md"}},
		{"what did I do last week", []string{"daily/2026-11-29.md", "daily/2026-11-28.md", "daily/2026-11-27.md"}},
		{"2026-W47", []string{"rollups/week/2026-W47.md"}},
		{"в прошлом месяце", []string{"daily/_archive/2026-10-13.md"}},
	}
	for _, c := range cases {
		o := defaults()
		o.Base = ix.Root.Dir
		r, err := Search(context.Background(), []*Index{ix}, c.q, o)
		if err != nil {
			t.Fatal(err)
		}
		if got := paths(r); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %v, want %v", c.q, got, c.want)
			continue
		}
		res := r.Results[0]
		if strings.HasPrefix(res.Snippet, "---") || !strings.Contains(res.Snippet, "session 8f825584") && !strings.Contains(res.Snippet, "Week 47") {
			t.Errorf("%q: snippet should start after the front matter: %q", c.q, res.Snippet)
		}
		lines, _ := ReadLines(filepath.Join(ix.Root.Dir, res.Path), res.StartLine, res.EndLine-res.StartLine+1, 0)
		if strings.TrimRight(lines, "\n") != res.Snippet {
			t.Errorf("%q: snippet is not the cited lines %s", c.q, res.Citation)
		}
	}
}

func TestDateNamingNoFileChangesNothing(t *testing.T) {
	ix, _ := datedMemory(t)
	// no file on those days nor in the week after them; 3 November's
	// file holds no dashboards (last Wednesday, 25 November, has no file
	// but 27 November is in the week after it: see
	// TestDateWithoutNoteFavoursTheWeekAfter)
	for _, q := range []string{"router on 5 March 2025", "what did we do on 1 January 2020", "dashboards on 3 November"} {
		o := defaults()
		with, err := Search(context.Background(), []*Index{ix}, q, o)
		if err != nil {
			t.Fatal(err)
		}
		o.DateBoost = -1
		without, _ := Search(context.Background(), []*Index{ix}, q, o)
		if !reflect.DeepEqual(with, without) {
			t.Errorf("%q: with dates %v, without %v", q, with.Results, without.Results)
		}
	}
}

func TestDateBoostIsMultiplicative(t *testing.T) {
	ix, _ := datedMemory(t)
	q := "router firmware on 13 October"
	o := defaults()
	o.DateBoost = 1
	base, _ := Search(context.Background(), []*Index{ix}, q, o)
	o.DateBoost = 3
	boosted, _ := Search(context.Background(), []*Index{ix}, q, o)
	score := func(r *Response, suffix string) float64 {
		for _, x := range r.Results {
			if strings.HasSuffix(x.Path, suffix) {
				return x.Score
			}
		}
		t.Fatalf("%s not found in %v", suffix, paths(r))
		return 0
	}
	if a, b := score(base, "2026-10-13.md"), score(boosted, "2026-10-13.md"); b < 2.99*a || b > 3.01*a {
		t.Errorf("in-range score %v with boost 3, %v with 1", b, a)
	}
	if a, b := score(base, "2026-11-29.md"), score(boosted, "2026-11-29.md"); a != b {
		t.Errorf("out-of-range score changed with the boost: %v, %v", a, b)
	}
}

func TestAutoRecallReadsDates(t *testing.T) {
	dir := t.TempDir()
	state := t.TempDir()
	root := Root{Dir: dir, Kind: KindShort}
	write(t, filepath.Join(dir, "daily", "2026-11-29.md"), "---\ntype: daily\ndate: 2026-11-29\n---\n\n# 2026-11-29\n\n### Done\n- Shipped the billing export.\n")
	write(t, filepath.Join(dir, "daily", "2026-11-20.md"), "# 2026-11-20\n\n### Done\n- Wrote docs.\n")
	indexed(t, state, root, Params{})
	got, err := AutoRecall(context.Background(), state, []Root{root}, "what did I do yesterday?", defaults(), 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "2026-11-29.md#L") || !strings.Contains(got, "billing export") || strings.Contains(got, "2026-11-20") {
		t.Fatalf("auto-recall block %q", got)
	}
}

func TestNamePeriodMatchesFileDate(t *testing.T) {
	for _, rel := range []string{"daily/2026-11-29.md", "rollups/week/2026-W48.md", "rollups/month/2026-02.md", "rollups/year/2025.md", "2026-01-05 meeting.md"} {
		p, ok := namePeriod(KindShort, rel)
		if !ok || fileDate(KindShort, rel, now) != p.To.Unix() {
			t.Errorf("%s: period %v, file date %v", rel, fmtRanges([]DayRange{p}), fileDate(KindShort, rel, now))
		}
	}
	if p, _ := namePeriod(KindShort, "rollups/week/2026-W48.md"); !p.From.Equal(day(2026, 11, 23)) {
		t.Errorf("week 48 starts %v", p.From)
	}
	for _, rel := range []string{"CORE.md", "notes.md", "wiki/Deploy.md"} {
		if _, ok := namePeriod(KindShort, rel); ok {
			t.Errorf("%s should not be dated by name", rel)
		}
	}
}

func TestNamedDayIsACandidateBelowThePool(t *testing.T) {
	ix, _ := datedMemory(t)
	o := defaults()
	o.Limit, o.CandidatePool = 1, 1 // BM25 alone would keep only 29 November's better match
	r, err := Search(context.Background(), []*Index{ix}, "router firmware last month", o)
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(r); len(got) != 1 || !strings.HasSuffix(got[0], "2026-10-13.md") {
		t.Fatalf("got %v, want the file of 13 October, last month", got)
	}
}

// A day with no note of its own is told of in the notes of the week
// after it ("I just got accepted"): those are favoured, and no later
// ones.
func TestDateWithoutNoteFavoursTheWeekAfter(t *testing.T) {
	dir := t.TempDir()
	daily := func(day, body string) {
		write(t, filepath.Join(dir, "daily", day+".md"), "---\ntype: daily\ndate: "+day+"\n---\n\n# "+day+"\n\n## 10:00 · session 1 · manual\n\n"+body)
	}
	daily("2026-11-17", "- Jon: Hey, long time no talk!\n- Gina: A lot happened, I just got accepted for a fashion internship!\n- Jon: Congrats, that is big news.\n")
	daily("2026-10-02", "- Gina: The internship programme accepted applications; accepted interns start the internship in spring.\n")
	daily("2026-11-27", "- Gina: Internship accepted, internship signed: accepted again for the internship.\n")
	ix := indexed(t, t.TempDir(), Root{Dir: dir, Kind: KindShort}, Params{})
	cases := []struct{ q, want, not string }{
		{"what internship was Gina accepted for on 14 November?", "2026-11-17.md", ""},
		// the week after 1 November holds no note: the query's words decide
		{"what internship was Gina accepted for on 1 November?", "", "2026-11-17.md"},
	}
	for _, c := range cases {
		r, err := Search(context.Background(), []*Index{ix}, c.q, defaults())
		if err != nil {
			t.Fatal(err)
		}
		got := paths(r)
		if len(got) == 0 {
			t.Fatalf("%q: nothing found", c.q)
		}
		if c.want != "" && !strings.HasSuffix(got[0], c.want) {
			t.Errorf("%q: %v, want %s first", c.q, got, c.want)
		}
		if c.not != "" && strings.HasSuffix(got[0], c.not) {
			t.Errorf("%q: %v, %s should not lead", c.q, got, c.not)
		}
		o := defaults()
		o.DateBoost = -1 // dates unread: the day's words alone do not put it first
		r, _ = Search(context.Background(), []*Index{ix}, c.q, o)
		if got := paths(r); len(got) > 0 && strings.HasSuffix(got[0], "2026-11-17.md") {
			t.Errorf("%q without dates: %v, the note after the day should not lead on its words alone", c.q, got)
		}
	}
}
