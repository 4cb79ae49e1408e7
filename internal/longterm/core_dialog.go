package longterm

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/hint"
)

// CoreReview is `core review` on the proposals waiting: apply or drop the
// ones named, or else list them, asking about each one when a person is
// at the terminal.
type CoreReview struct {
	Apply, Drop []string // proposal ids, or "all"
	Terminal    bool     // In is a terminal: ask about each proposal
	In          io.Reader
	Out         io.Writer
	Max         int // long.core_max_chars
	Now         time.Time
	// Commit runs one application as one commit naming action
	// ([Store.Change] with the project's long.git).
	Commit func(action string, fn func() error) error
}

// reviewHint is for a proposal named wrongly: where the ids are.
const reviewHint = "`memhook core review` lists the proposals and their ids"

// Review runs the review r describes.
func (s *Store) Review(r CoreReview) error {
	ps, err := s.CoreProposals()
	if err != nil {
		return err
	}
	apply := func(id string) error {
		return r.Commit("core review "+id, func() error {
			p, err := s.ApplyCoreProposal(id, r.Max, r.Now)
			if err == nil {
				fmt.Fprintf(r.Out, "added to CORE.md: %s\n", p.Line)
			}
			return err
		})
	}
	drop := func(id string) error {
		p, err := s.DropCoreProposal(id, r.Now)
		if err == nil {
			fmt.Fprintf(r.Out, "dropped: %s\n", p.Line)
		}
		return err
	}
	if len(r.Apply)+len(r.Drop) > 0 {
		for _, id := range proposalIDs(r.Apply, ps) {
			if err := apply(id); err != nil {
				return hint.Wrap(err, reviewHint)
			}
		}
		for _, id := range proposalIDs(r.Drop, ps) {
			if err := drop(id); err != nil {
				return hint.Wrap(err, reviewHint)
			}
		}
		return nil
	}
	if len(ps) == 0 {
		fmt.Fprintln(r.Out, "no CORE.md proposals wait for review")
		return nil
	}
	in := bufio.NewReader(r.In)
	for _, p := range ps {
		when := p.Day
		if p.Time != "" {
			when += " " + p.Time
		}
		fmt.Fprintf(r.Out, "%s  %s\n  %s\n  the person said: %q\n", p.ID, when, p.Line, p.Reply)
		if p.Why != "" {
			fmt.Fprintf(r.Out, "  not applied: %s\n", p.Why)
		}
		if !r.Terminal {
			continue
		}
		fmt.Fprint(r.Out, "  add to CORE.md? [a]dd, [d]rop, [s]kip: ")
		answer, err := in.ReadString('\n')
		if err != nil && answer == "" {
			return nil
		}
		switch strings.ToLower(strings.TrimSpace(answer)) {
		case "a", "add", "y", "yes":
			// A line too big for CORE.md stays waiting; the person goes on.
			var big *CoreTooBigError
			if err := apply(p.ID); errors.As(err, &big) {
				fmt.Fprintf(r.Out, "  %v\n", err)
			} else if err != nil {
				return err
			}
		case "d", "drop":
			if err := drop(p.ID); err != nil {
				return err
			}
		}
	}
	if !r.Terminal {
		fmt.Fprintln(r.Out, "add one with `memhook core review --apply ID`, discard with `--drop ID`")
	}
	return nil
}

// proposalIDs is ids with "all" standing for every proposal waiting.
func proposalIDs(ids []string, ps []CoreProposal) []string {
	for _, id := range ids {
		if id == "all" {
			all := make([]string, 0, len(ps))
			for _, p := range ps {
				all = append(all, p.ID)
			}
			return all
		}
	}
	return ids
}
