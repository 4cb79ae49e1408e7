package serve

import (
	"errors"
	"net/http"
	"time"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/longterm/night"
	"github.com/cerebro-mem/cerebro/internal/org/rollup"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/search"
)

// chartWeeks is how many weeks the activity chart shows.
const chartWeeks = 8

// dashboardView is the org rollup as a page.
type dashboardView struct {
	Report   *rollup.Report
	Chart    *activityChart
	Nights   []nightRow
	Activity map[string]string // project id → its activity in rollup.md's words
	Links    map[string]string // project id → its memory on this server
	Memory   map[string]memoryLinks
}

// memoryLinks are a project's memory on this server, as the dashboard
// links it: its memory page, its search (scoped to it), its newest daily
// distillate and its wiki.
type memoryLinks struct {
	Memory, Search string
	Day, DayHref   string // the newest daily distillate, if any
	Wiki           string // its long-term pages, on its memory page
}

// projectMemory links a reachable project's memory: directory listings
// only, whatever its history.
func projectMemory(lp page, o Project) memoryLinks {
	ml := memoryLinks{Memory: lp.ProjectURL(o, "/memory"), Search: lp.ProjectURL(o, "/memory/search?scope="+string(search.ScopeProject))}
	if ds := days(o.Root); len(ds) > 0 {
		ml.Day = ds[0].Day
		ml.DayHref = page{Lang: lp.Lang, Project: o, query: projectQuery(lp, o)}.U("/memory/file", "path", ds[0].Path)
	}
	ml.Wiki = ml.Memory + "#pages"
	return ml
}

// projectQuery is what a link to o's pages adds to their address.
func projectQuery(lp page, o Project) string {
	if o.ID != lp.startID {
		return "project=" + o.ID
	}
	return ""
}

// nightRow is one project's last night pass, as doctor reads it.
type nightRow struct {
	Project string
	Report  *night.Report // nil: no night has run there
}

// nights reads each project's last night: two bounded files per project,
// whatever the history.
func nights(ps []*rollup.Project) []nightRow {
	var out []nightRow
	for _, p := range ps {
		last, _, _ := night.ReadLast(project.Layout{Root: p.Path}.LongDir())
		out = append(out, nightRow{Project: p.Name, Report: last})
	}
	return out
}

func (s *Server) dashboard(w http.ResponseWriter, r *http.Request, q *req) {
	if s.opts.Rollup == nil {
		s.fail(w, r, q, http.StatusNotFound, errors.New(q.lang.T("no org desk is configured")))
		return
	}
	s.mu.Lock()
	rep := s.opts.Rollup()
	s.mu.Unlock()
	var all []*rollup.Project
	all = append(append(append(all, rep.Active...), rep.Paused...), rep.Completed...)
	today, err := time.ParseInLocation(time.DateOnly, rep.Date, time.Local)
	if err != nil {
		today = s.opts.Now()
	}
	v := dashboardView{Report: rep, Chart: chart(q.lang, all, today), Nights: nights(all), Activity: map[string]string{}, Links: map[string]string{}, Memory: map[string]memoryLinks{}}
	lp := s.linkPage(q)
	reachable := map[string]Project{}
	for _, p := range s.projects() {
		reachable[p.ID] = p
	}
	for _, p := range all {
		v.Activity[p.ID] = activityWords(q.lang, p)
		if o, ok := reachable[p.ID]; ok {
			v.Links[p.ID] = lp.ProjectURL(o, "/memory")
			v.Memory[p.ID] = projectMemory(lp, o)
		}
	}
	s.render(w, r, q, "dashboard", "dashboard", q.lang.T("Org dashboard"), http.StatusOK, page{Data: v})
}

// activityWords are rollup.md's words for a project's activity; Russian
// says the same in its words.
func activityWords(l *language, p *rollup.Project) string {
	if l != ru {
		return rollup.ActivityWords(p)
	}
	switch p.Activity {
	case rollup.Fresh:
		return "свежий · " + ruAgo(p.ActivityAge)
	case rollup.Stale:
		return "⚠ устарел · " + ruAgo(p.ActivityAge)
	}
	return l.T(p.Activity)
}

func ruAgo(days int) string {
	switch days {
	case 0:
		return "сегодня"
	case 1:
		return "вчера"
	}
	return ru.N(days, "day") + " назад"
}

// weeksAgo names a chart week as rollup.WeeksAgo does.
func weeksAgo(l *language, n int) string {
	if l != ru {
		return rollup.WeeksAgo(n)
	}
	switch n {
	case 0:
		return "эта неделя"
	case 1:
		return "неделю назад"
	}
	return ru.N(n, "week") + " назад"
}

// activityChart is the days with a daily distillate per project and week:
// a server-side SVG of small bars, one row per project.
type activityChart struct {
	Weeks  []chartWeek // oldest first
	Rows   []chartRow
	Width  int
	Height int
	Max    int
}

type chartRow struct {
	Name  string
	Stale bool
	Y     int
	Bars  []chartBar
}

type chartBar struct {
	X, Y, W, H  int
	MidX, TextY int // where the day count is written
	BgY, BgH    int // the full-height track behind the bar
	Days        int
	Week        chartWeek
}

// chartWeek is one week of the chart: its name in rollup's words ("this
// week", "3 weeks ago") and its days ("Nov 25 – Dec 1").
type chartWeek struct {
	Name, Days string
}

// weekDays counts the project's daily files per week: names only, two
// directory listings, whatever the history.
func weekDays(root string, start time.Time) []int {
	counts := make([]int, chartWeeks)
	l := project.Layout{Root: root}
	for _, dir := range []string{l.DailyDir(), l.ArchiveDir()} {
		dates, _ := daily.Days(dir)
		for _, date := range dates {
			d, err := time.ParseInLocation(time.DateOnly, date, start.Location())
			if err != nil || d.Before(start) {
				continue
			}
			if wk := int(d.Sub(start).Hours() / 24 / 7); wk < chartWeeks {
				counts[wk]++
			}
		}
	}
	return counts
}

func chart(l *language, ps []*rollup.Project, today time.Time) *activityChart {
	const label, barW, gap, rowH, top = 170, 94, 8, 44, 40
	today = time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, today.Location())
	// Weeks end on today: the last bar is the last seven days, named "this
	// week" with its first and last day, so no label reads as a past date.
	start := today.AddDate(0, 0, -7*chartWeeks+1)
	c := &activityChart{Max: 1}
	for i := 0; i < chartWeeks; i++ {
		from, to := start.AddDate(0, 0, 7*i), start.AddDate(0, 0, 7*i+6)
		c.Weeks = append(c.Weeks, chartWeek{Name: weeksAgo(l, chartWeeks-1-i),
			Days: l.Date(int(from.Month()), from.Day()) + " – " + l.Date(int(to.Month()), to.Day())})
	}
	counts := make([][]int, len(ps))
	for i, p := range ps {
		counts[i] = weekDays(p.Path, start)
		for _, n := range counts[i] {
			c.Max = max(c.Max, n)
		}
	}
	for i, p := range ps {
		row := chartRow{Name: p.Name, Stale: p.Activity == rollup.Stale, Y: top + i*rowH}
		for wk, n := range counts[i] {
			// Scaled to the busiest week shown, so that a quiet org's
			// differences stay visible; the number is written on the bar.
			h := n * (rowH - 20) / c.Max
			row.Bars = append(row.Bars, chartBar{X: label + wk*(barW+gap), Y: row.Y + rowH - 4 - h, W: barW, H: h,
				BgY: row.Y + 4, BgH: rowH - 8, Days: n, Week: c.Weeks[wk],
				MidX: label + wk*(barW+gap) + barW/2, TextY: row.Y + rowH - 7 - h})
		}
		c.Rows = append(c.Rows, row)
	}
	c.Width = label + chartWeeks*(barW+gap) + 10
	c.Height = top + len(ps)*rowH + 12
	return c
}
