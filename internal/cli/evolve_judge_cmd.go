package cli

import (
	"errors"
	"fmt"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
)

// judgeRun shows the blind pairs to a person, or lists or judges one for a
// script. A model that ran a pair never judges it.
func (opts *EvolveOptions) judgeRun(p evolve.Project) error {
	if opts.Getenv("CLAUDECODE") != "" || opts.Getenv(claude.NestedEnv) != "" {
		return factory.WithHint(errors.New("evolve judge: refused inside Claude Code: a blind pair is judged by a person, never by the model that ran it"), "run it in your own terminal")
	}
	if opts.Pair != "" {
		err := p.JudgePair(opts.Pair, opts.Better, opts.Now())
		if errors.Is(err, evolve.ErrNoPair) {
			return factory.WithHint(err, "list them with `memhook evolve judge --list`")
		}
		if err == nil {
			fmt.Fprintf(opts.Out, "pair %s judged: %s\n", opts.Pair, opts.Better)
		}
		return err
	}
	pairs, err := p.Pairs()
	switch {
	case err != nil:
		return err
	case opts.List && opts.JSON:
		return printObject(opts.Out, map[string]any{"pairs": pairs}, nil)
	case opts.List:
		evolve.WritePairs(opts.Out, pairs)
	default:
		p.JudgeAsking(opts.In, opts.Out, pairs, opts.Now)
	}
	return nil
}
