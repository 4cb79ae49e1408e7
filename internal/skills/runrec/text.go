package runrec

import (
	"fmt"
	"io"
	"strings"
)

// Listing is what `memhook runs` shows: the summary of every run that
// matched and the newest of them.
type Listing struct {
	Runs    []Run   `json:"runs"`
	Summary Summary `json:"summary"`
}

// List reads the runs that match f and keeps the newest limit (0: all),
// their shadow answers left out: an answer is for the judge, not for
// listings.
func (s *Store) List(f Filter, limit int) (Listing, error) {
	all, err := s.Runs(f)
	if err != nil {
		return Listing{}, err
	}
	l := Listing{Summary: Summarize(all), Runs: all}
	if limit > 0 && len(l.Runs) > limit {
		l.Runs = l.Runs[len(l.Runs)-limit:]
	}
	for i := range l.Runs {
		l.Runs[i].Answer = ""
	}
	return l, nil
}

// WriteText prints the listing for a person, one line a run.
func (l Listing) WriteText(w io.Writer) {
	sum := l.Summary
	fmt.Fprintf(w, "%d runs: %d good, %d bad, %d unfinished (no verdict), %d misses\n", sum.Runs, sum.Good, sum.Bad, sum.Unfinished, sum.Misses)
	for _, r := range l.Runs {
		v := r.Verdict
		if v == "" {
			v = "unfinished"
		}
		var skills []string
		for _, s := range r.Skills {
			n := s.Name
			if s.Candidate != "" {
				n += "@" + s.Candidate
			}
			skills = append(skills, n)
		}
		fmt.Fprintf(w, "%s  %s  %-8s depth %d  %d calls  %5.1fs  %-10s %-10s %s  %s\n", r.ID, r.Time.Format("2006-01-02 15:04"),
			r.Kind, r.Depth, r.ModelCalls, r.Seconds, orDash(r.AnswerKind), v, strings.Join(skills, ","), ClipLine(r.Request, 60))
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// ClipLine is s on one line, its runs of white space made one space, cut
// to n runes with an ellipsis.
func ClipLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
