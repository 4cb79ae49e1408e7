package cli

import (
	"bufio"
	"errors"
	"fmt"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/spf13/cobra"
)

// CoreReviewOptions are the inputs of `memhook core review`.
type CoreReviewOptions struct {
	*Factory
	Apply   []string // proposal ids, or "all"
	Drop    []string
	Project string
	JSON    bool
	// StdinTerminal says whether a person can be asked, one proposal at a
	// time.
	StdinTerminal bool
}

func newCmdCoreReview(f *Factory) *cobra.Command {
	opts := &CoreReviewOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "review [--apply ID|all] [--drop ID|all]",
		Short: "List the CORE.md lines the night proposed, and add or drop them",
		Long: `The night's step 4 draws CORE.md lines from the person's own replies of a
day. With night.core = "propose" (the default) they wait here. review lists
them with the reply each restates; --apply adds a line through the CORE writer
(long.core_max_chars applies; one commit), --drop discards it. On a terminal
without flags it asks about each one.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.StdinTerminal = stdinIsTerminal(opts.In)
			return coreReviewRun(opts)
		},
	}
	cmd.Flags().StringSliceVar(&opts.Apply, "apply", nil, "add the proposal with this id to CORE.md (all: every one)")
	cmd.Flags().StringSliceVar(&opts.Drop, "drop", nil, "discard the proposal with this id (all: every one)")
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory inside the project")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the proposals as JSON")
	return cmd
}

func coreReviewRun(opts *CoreReviewOptions) error {
	s, root, err := opts.longStore(opts.Project)
	if err != nil {
		return err
	}
	eff := opts.Config(root)
	ps, err := s.CoreProposals()
	if err != nil {
		return err
	}
	if opts.JSON && len(opts.Apply)+len(opts.Drop) == 0 {
		if ps == nil {
			ps = []longterm.CoreProposal{}
		}
		return writeJSON(opts.Out, ps)
	}
	ids := func(list []string) []string {
		for _, id := range list {
			if id == "all" {
				var all []string
				for _, p := range ps {
					all = append(all, p.ID)
				}
				return all
			}
		}
		return list
	}
	apply := func(id string) error {
		return opts.memoryCommit(s, root, "core review "+id, func() error {
			p, err := s.ApplyCoreProposal(id, eff.Long.CoreMaxChars, opts.Now())
			if err == nil {
				fmt.Fprintf(opts.Out, "added to CORE.md: %s\n", p.Line)
			}
			return err
		})
	}
	drop := func(id string) error {
		p, err := s.DropCoreProposal(id, opts.Now())
		if err == nil {
			fmt.Fprintf(opts.Out, "dropped: %s\n", p.Line)
		}
		return err
	}
	if len(opts.Apply)+len(opts.Drop) > 0 {
		for _, id := range ids(opts.Apply) {
			if err := apply(id); err != nil {
				return withHint(err, "`memhook core review` lists the proposals and their ids")
			}
		}
		for _, id := range ids(opts.Drop) {
			if err := drop(id); err != nil {
				return withHint(err, "`memhook core review` lists the proposals and their ids")
			}
		}
		return nil
	}
	if len(ps) == 0 {
		fmt.Fprintln(opts.Out, "no CORE.md proposals wait for review")
		return nil
	}
	in := bufio.NewReader(opts.In)
	for _, p := range ps {
		when := p.Day
		if p.Time != "" {
			when += " " + p.Time
		}
		fmt.Fprintf(opts.Out, "%s  %s\n  %s\n  the person said: %q\n", p.ID, when, p.Line, p.Reply)
		if p.Why != "" {
			fmt.Fprintf(opts.Out, "  not applied: %s\n", p.Why)
		}
		if !opts.StdinTerminal {
			continue
		}
		fmt.Fprint(opts.Out, "  add to CORE.md? [a]dd, [d]rop, [s]kip: ")
		answer, err := in.ReadString('\n')
		if err != nil && answer == "" {
			return nil
		}
		switch strings.ToLower(strings.TrimSpace(answer)) {
		case "a", "add", "y", "yes":
			var big *longterm.CoreTooBigError
			if err := apply(p.ID); errors.As(err, &big) {
				fmt.Fprintf(opts.Out, "  %v\n", err)
			} else if err != nil {
				return err
			}
		case "d", "drop":
			if err := drop(p.ID); err != nil {
				return err
			}
		}
	}
	if !opts.StdinTerminal {
		fmt.Fprintln(opts.Out, "add one with `memhook core review --apply ID`, discard with `--drop ID`")
	}
	return nil
}
