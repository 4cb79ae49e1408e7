package runlog

import "sort"

// Timing is how one hook event has run, from the entries in the log.
type Timing struct {
	Event    string
	Runs     int
	Errors   int
	P50, P95 float64 // wall time in milliseconds
}

// Summarize returns the timing of every hook event in entries, sorted by
// event, and the error entries (of hooks and of background flushes),
// oldest first. Flush entries time a background job and mcp entries the
// MCP server's calls, not a hook, so they count only as errors.
func Summarize(entries []Entry) (timings []Timing, errs []Entry) {
	ms := map[string][]float64{}
	failed := map[string]int{}
	for _, e := range entries {
		if e.Level == "error" {
			errs = append(errs, e)
		}
		if e.Event == "flush" || e.Event == "mcp" {
			continue
		}
		ms[e.Event] = append(ms[e.Event], e.MS)
		if e.Level == "error" {
			failed[e.Event]++
		}
	}
	for ev, v := range ms {
		sort.Float64s(v)
		timings = append(timings, Timing{Event: ev, Runs: len(v), Errors: failed[ev], P50: quantile(v, 0.5), P95: quantile(v, 0.95)})
	}
	sort.Slice(timings, func(i, j int) bool { return timings[i].Event < timings[j].Event })
	return timings, errs
}

// quantile is the nearest-rank quantile of sorted values.
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[int(q*float64(len(sorted)-1)+0.5)]
}
