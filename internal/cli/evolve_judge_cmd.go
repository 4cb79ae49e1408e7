package cli

import (
	"errors"
	"fmt"

	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
)

// judgeRun shows the blind pairs to a person, or lists or judges one for a
// script. A model that ran a pair never judges it.
func (opts *EvolveOptions) judgeRun(p evolve.Project) error {
	// No terminal check (personOnly's): a person's script judges with
	// --list and --pair. What matters is that no model, least of all the
	// one that ran the pair, is the judge.
	if err := notModel(opts.Getenv, opts.Nested, "evolve judge"); err != nil {
		return err
	}
	if opts.Pair != "" {
		err := p.JudgePair(opts.Pair, opts.Better, opts.Now())
		if errors.Is(err, evolve.ErrNoPair) {
			return hint.Wrap(err, "list them with `memhook evolve judge --list`")
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
		return writeJSON(opts.Out, map[string]any{"pairs": pairs})
	case opts.List:
		evolve.WritePairs(opts.Out, pairs)
	default:
		p.JudgeAsking(opts.In, opts.Out, pairs, opts.Now)
	}
	return nil
}
