package cli

import (
	"bufio"
	"errors"
	"fmt"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
)

func (opts *EvolveOptions) judgeRun(j runrec.Journal) error {
	if opts.Getenv("CLAUDECODE") != "" || opts.Getenv(claude.NestedEnv) != "" {
		return withHint(errors.New("evolve judge: refused inside Claude Code: a blind pair is judged by a person, never by the model that ran it"), "run it in your own terminal")
	}
	st, err := runrec.OpenStore(j)
	if err != nil {
		return err
	}
	defer st.Close()
	pairs, err := evolve.Unjudged(st)
	if err != nil {
		return err
	}
	switch {
	case opts.List:
		if opts.JSON {
			return printObject(opts.Out, map[string]any{"pairs": pairs}, nil)
		}
		for _, p := range pairs {
			fmt.Fprintf(opts.Out, "%s  %s  %s\n", p.Pair, p.Skill, clipLine(p.Request, 70))
		}
		return nil
	case opts.Pair != "":
		for _, p := range pairs {
			if p.Pair == opts.Pair {
				if err := p.Judge(j, opts.Better, opts.Now()); err != nil {
					return err
				}
				fmt.Fprintf(opts.Out, "pair %s judged: %s\n", p.Pair, opts.Better)
				return nil
			}
		}
		return withHint(fmt.Errorf("evolve judge: no unjudged pair %q", opts.Pair), "list them with `memhook evolve judge --list`")
	}
	if len(pairs) == 0 {
		fmt.Fprintln(opts.Out, "no shadow pairs wait for a verdict")
		return nil
	}
	in := bufio.NewScanner(opts.In)
	judged := 0
	for i, p := range pairs {
		fmt.Fprintf(opts.Out, "\n— pair %d of %d (skill %s) —\nRequest: %s\n\n[1]\n%s\n\n[2]\n%s\n\nWhich answer is better? 1, 2, b(oth good), n(either), s(kip), q(uit): ",
			i+1, len(pairs), p.Skill, p.Request, p.Answer1, p.Answer2)
		if !in.Scan() {
			break
		}
		choice := strings.TrimSpace(in.Text())
		if choice == "q" {
			break
		}
		if choice == "s" || choice == "" {
			continue
		}
		if err := p.Judge(j, choice, opts.Now()); err != nil {
			fmt.Fprintf(opts.Out, "%v — skipped\n", err)
			continue
		}
		judged++
	}
	fmt.Fprintf(opts.Out, "\n%d pairs judged\n", judged)
	return nil
}

func (opts *EvolveOptions) evolveLog(j runrec.Journal) error {
	st, err := runrec.OpenStore(j)
	if err != nil {
		return err
	}
	defer st.Close()
	ds, err := st.Decisions(opts.Limit)
	if err != nil {
		return err
	}
	if opts.JSON {
		return printObject(opts.Out, map[string]any{"decisions": ds}, nil)
	}
	if len(ds) == 0 {
		fmt.Fprintln(opts.Out, "no candidate was promoted or removed yet")
	}
	for _, d := range ds {
		fmt.Fprintf(opts.Out, "%s  %s/%s  %s  commit %.12s\n  %s\n", d.Time.Format("2006-01-02 15:04"), d.Skill, d.Candidate, d.Action, d.Commit, d.Why)
	}
	return nil
}
