package longterm

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"
)

// MergeDialog is `fact merge` at the terminal: the plan shown, the
// person's yes, then the merge as one commit.
type MergeDialog struct {
	Page, From string
	Yes        bool // merge without asking
	In         io.Reader
	Out        io.Writer
	Now        time.Time
	// Commit runs the merge as one commit naming action ([Store.Change]
	// with the project's long.git).
	Commit func(action string, fn func() error) error
}

// MergeAsking plans the merge d names, prints the plan, and merges when
// the person agrees (or d.Yes says they did).
func (s *Store) MergeAsking(d MergeDialog) error {
	plan, err := s.PlanMerge(d.Page, d.From)
	if err != nil {
		return err
	}
	fmt.Fprint(d.Out, plan.Describe())
	if !d.Yes {
		fmt.Fprint(d.Out, "merge? [y/N] ")
		answer, _ := bufio.NewReader(d.In).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			fmt.Fprintln(d.Out, "\nnothing merged")
			return nil
		}
	}
	if err := d.Commit("fact merge "+plan.From+" into "+plan.Page, func() error { return s.Merge(plan, d.Now) }); err != nil {
		return err
	}
	fmt.Fprintf(d.Out, "merged %s into %s; %s is now a redirect\n", plan.From, plan.Page, plan.From)
	return nil
}
