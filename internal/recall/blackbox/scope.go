package blackbox

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Scope says where and when a record holds. An empty field means unknown —
// never "everywhere" or "always" — and places do not inherit: a record for
// Madrid says nothing about Spain.
type Scope struct {
	Calendar string `json:"calendar,omitempty"` // YYYY, YYYY-MM, YYYY-MM-DD, or FROM..TO of those
	Geo      string `json:"geo,omitempty"`
}

// span is a calendar scope as a half-open interval of days.
type span struct{ from, to time.Time }

// parseCalendar reads a calendar scope; the error is the reason a caller
// sees as bad_form.
func parseCalendar(s string) (span, error) {
	s = strings.TrimSpace(s)
	if a, b, ok := strings.Cut(s, ".."); ok {
		x, err := parseCalendar(a)
		if err != nil {
			return span{}, err
		}
		y, err := parseCalendar(b)
		if err != nil {
			return span{}, err
		}
		if !y.to.After(x.from) {
			return span{}, fmt.Errorf("period %q ends before it starts", s)
		}
		return span{x.from, y.to}, nil
	}
	for _, f := range []struct {
		layout string
		add    func(time.Time) time.Time
	}{
		{time.DateOnly, func(t time.Time) time.Time { return t.AddDate(0, 0, 1) }},
		{"2006-01", func(t time.Time) time.Time { return t.AddDate(0, 1, 0) }},
		{"2006", func(t time.Time) time.Time { return t.AddDate(1, 0, 0) }},
	} {
		if len(s) != len(f.layout) {
			continue
		}
		if t, err := time.Parse(f.layout, s); err == nil {
			return span{t, f.add(t)}, nil
		}
	}
	return span{}, fmt.Errorf("calendar %q is not YYYY, YYYY-MM, YYYY-MM-DD or FROM..TO of those", s)
}

// fit says how a record's scope meets the caller's: "match", "unknown" (the
// record's scope is empty where the caller gave one), or "other" (the
// record holds somewhere or somewhen else and must not answer).
func fit(rec, want Scope) string {
	unknown := false
	if want.Geo != "" {
		switch {
		case rec.Geo == "":
			unknown = true
		case !strings.EqualFold(strings.TrimSpace(rec.Geo), strings.TrimSpace(want.Geo)):
			return "other"
		}
	}
	if want.Calendar != "" {
		w, _ := parseCalendar(want.Calendar)
		if rec.Calendar == "" {
			unknown = true
		} else if r, err := parseCalendar(rec.Calendar); err != nil || !r.from.Before(w.to) || !w.from.Before(r.to) {
			return "other"
		}
	}
	if unknown {
		return "unknown"
	}
	return "match"
}

// dependence names the scopes the caller left out that the found records
// carry: then the answer depends on a parameter the caller did not give.
func dependence(items []Item, want Scope) []Missing {
	var out []Missing
	geos, cals := map[string]bool{}, map[string]bool{}
	for _, it := range items {
		if it.Scope.Geo != "" {
			geos[it.Scope.Geo] = true
		}
		if it.Scope.Calendar != "" {
			cals[it.Scope.Calendar] = true
		}
	}
	if want.Geo == "" && len(geos) > 0 {
		out = append(out, Missing{Param: "geo", Values: sorted(geos),
			Why: "the answer depends on the place: the records hold for " + strings.Join(sorted(geos), ", ") + " only, and a record for one place says nothing about another; give geo"})
	}
	if want.Calendar == "" && len(cals) > 0 {
		out = append(out, Missing{Param: "calendar", Values: sorted(cals),
			Why: "the answer depends on the date: the records hold for " + strings.Join(sorted(cals), ", ") + " only; give calendar (a date or FROM..TO)"})
	}
	return out
}

func sorted(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
