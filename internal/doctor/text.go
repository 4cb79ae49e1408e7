package doctor

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteText prints the findings, each hint under its problem, then the
// hook timings when there are any.
func (r *Report) WriteText(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, f := range r.Findings {
		fmt.Fprintf(tw, "%s\t%s\n", f.Level, f.What)
		if f.Hint != "" && f.Level != "ok" {
			fmt.Fprintf(tw, "\t  hint: %s\n", f.Hint)
		}
	}
	tw.Flush()
	if len(r.Timings) == 0 {
		return
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "HOOK\tRUNS\tP50 ms\tP95 ms\tERRORS")
	for _, t := range r.Timings {
		fmt.Fprintf(tw, "%s\t%d\t%.1f\t%.1f\t%d\n", t.Event, t.Runs, t.P50, t.P95, t.Errors)
	}
	tw.Flush()
}
