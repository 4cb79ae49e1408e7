package serve

import (
	"fmt"
	"net/http"
	"time"

	"github.com/cerebro-mem/cerebro/internal/longterm/night"
	"github.com/cerebro-mem/cerebro/internal/org/rollup"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
)

// chartWeeks is how many weeks the activity chart shows.
const chartWeeks = 8

// dashboardView is the org rollup as a page.
type dashboardView struct {
	Report *rollup.Report
	Chart  *activityChart
	Nights []nightRow
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

func (s *Server) dashboard(w http.ResponseWriter, r *http.Request) {
	if s.opts.Rollup == nil {
		s.fail(w, r, http.StatusNotFound, fmt.Errorf("no org desk is configured"))
		return
	}
	s.mu.Lock()
	rep := s.opts.Rollup()
	s.mu.Unlock()
	var all []*rollup.Project
	all = append(append(append(all, rep.Active...), rep.Paused...), rep.Completed...)
	today, err := time.ParseInLocation("2006-01-02", rep.Date, time.Local)
	if err != nil {
		today = s.opts.Now()
	}
	s.render(w, r, "dashboard", "dashboard", "Org dashboard", http.StatusOK, page{Data: dashboardView{Report: rep, Chart: chart(all, today), Nights: nights(all)}})
}

// activityChart is the days with a daily distillate per project and week:
// a server-side SVG of small bars, one row per project.
type activityChart struct {
	Weeks  []string // labels, oldest first
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
	Week        string
}

var dayName = lazyregexp.New(`^(\d{4}-\d{2}-\d{2})\.md$`)

// weekDays counts the project's daily files per week: names only, two
// directory listings, whatever the history.
func weekDays(root string, start time.Time) []int {
	counts := make([]int, chartWeeks)
	l := project.Layout{Root: root}
	for _, dir := range []string{l.DailyDir(), l.ArchiveDir()} {
		names, err := safefs.ReadDirNames(dir)
		if err != nil {
			continue
		}
		for _, n := range names {
			m := dayName.FindStringSubmatch(n)
			if m == nil {
				continue
			}
			d, err := time.ParseInLocation("2006-01-02", m[1], start.Location())
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

func chart(ps []*rollup.Project, today time.Time) *activityChart {
	const label, barW, gap, rowH, top = 180, 52, 10, 44, 28
	today = time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, today.Location())
	// Weeks end on today: the last bar is the last seven days.
	start := today.AddDate(0, 0, -7*chartWeeks+1)
	c := &activityChart{Max: 1}
	for i := 0; i < chartWeeks; i++ {
		c.Weeks = append(c.Weeks, start.AddDate(0, 0, 7*i).Format("Jan 2"))
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
