package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
	"github.com/spf13/cobra"
)

// EvolveOptions are the inputs of `memhook evolve` and its sub-commands.
type EvolveOptions struct {
	In          io.Reader
	Out         io.Writer
	Now         func() time.Time
	Getenv      func(string) string
	Nested      func() bool
	UseHome     func(home, what string) error
	ProjectRoot func(dir string) (string, error)
	Skills      func(root string) evolve.Project
	Decide      func(root string, now time.Time, dryRun bool) (factory.Decided, error)
	DecideAll   func(now time.Time, dryRun bool, each func(factory.Decided)) error
	Shadow      func(root, pluginRoot string) evolve.Shadow
	Logs        string
	Action      string // decide, shadow, judge, log
	Project     string
	Run         string // shadow: the real run to shadow
	Pair        string // judge: the pair judged
	Better      string // judge: 1, 2, both or neither
	List        bool   // judge: list the unjudged pairs
	DryRun      bool
	Limit       int
	JSON        bool
	All         bool   // decide in every project registered on the desk
	Home        string // the desk, with --all
}

// evolveOptions are what `memhook evolve` uses of f.
func evolveOptions(f *factory.Factory) *EvolveOptions {
	return &EvolveOptions{In: f.In, Out: f.Out, Now: f.Now, Getenv: f.Getenv, Nested: f.Nested, UseHome: f.UseHome, ProjectRoot: f.ProjectRoot, Skills: f.Skills, Decide: f.Decide, DecideAll: f.DecideAll, Shadow: f.Shadow, Logs: f.Paths.Logs()}
}

func newCmdEvolve(f *factory.Factory, runF func(*EvolveOptions) error) *cobra.Command {
	opts := evolveOptions(f)
	opts.Action = "decide"
	cmd := &cobra.Command{
		Use:   "evolve",
		Short: "Decide every skill candidate: promote, remove or wait, by outside verdicts and price (docs/skills.md)",
		Long: `A candidate version of a skill (<skills>/<name>/candidates/<id>/SKILL.md) runs in
the shadow of real recalls beside the active version. memhook evolve promotes
it when it won on verdicts (evolution.min_verdicts judged pairs, leading by
evolution.margin) at no higher price, removes it when it lost or its trial ran
out, and otherwise waits. Each promotion or removal is one commit of the skill
and a record that ` + "`memhook evolve log`" + ` shows.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runWith(runF, evolveRun, opts) },
	}
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "say what would be decided, change nothing")
	cmd.Flags().BoolVar(&opts.All, "all", false, "every project registered on the desk (the daily job)")
	cmd.Flags().StringVar(&opts.Home, "home", "", "with --all: the desk folder (default $CEREBRO_HOME or ~/cerebro)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")

	sub := evolveOptions(f)
	return addVerbs(cmd, []verb{
		{"shadow RUN_ID", "Run a candidate and the active version on a recorded request (started in the background by recall)", cobra.ExactArgs(1)},
		{"judge", "Judge shadow pairs blind: two answers to one request, in random order, pick the better", nil},
		{"log", "List promotions and removals, newest first, with the figures behind each", nil},
	}, func(c *cobra.Command, name string) {
		c.Flags().StringVar(&sub.Project, "project", ".", "a directory of the project")
		switch name {
		case "judge":
			c.Long = `Show each unjudged shadow pair — the request and two answers, the active
version's and the candidate's, in an order fixed per pair but unrelated to which
is which — and record your choice as verdicts on both runs. Without a terminal,
list the pairs with --list --json and judge one with --pair ID --better 1|2|both|neither.`
			c.Flags().BoolVar(&sub.List, "list", false, "list the unjudged pairs and stop")
			c.Flags().StringVar(&sub.Pair, "pair", "", "the pair to judge")
			c.Flags().StringVar(&sub.Better, "better", "", "1, 2, both or neither")
			c.Flags().BoolVar(&sub.JSON, "json", false, "print JSON")
		case "log":
			c.Flags().IntVar(&sub.Limit, "limit", 20, "at most this many (0: all)")
			c.Flags().BoolVar(&sub.JSON, "json", false, "print JSON")
		}
	}, func(name string, args []string) error {
		sub.Action = name
		if name == "shadow" {
			sub.Run = args[0]
		}
		return evolveRun(sub)
	})
}

// validate checks the flags of the action before any record is read.
func (opts *EvolveOptions) validate() error {
	switch opts.Action {
	case "judge":
		if opts.Pair != "" {
			if _, err := evolve.JudgeVerdicts(opts.Better); err != nil {
				return checkChoice("evolve judge", "better", opts.Better, []string{"1", "2", "both", "neither"})
			}
		}
	case "log":
		return checkMinFlag("evolve log", "limit", opts.Limit, 0)
	}
	return nil
}

func evolveRun(opts *EvolveOptions) error {
	if err := opts.validate(); err != nil {
		return err
	}
	if opts.All && opts.Action == "decide" {
		return opts.decideAll()
	}
	root, err := opts.ProjectRoot(opts.Project)
	if err != nil {
		return err
	}
	p := opts.Skills(root)
	switch opts.Action {
	case "shadow":
		return opts.shadowRun(p)
	case "judge":
		return opts.judgeRun(p)
	case "log":
		ds, err := p.Decisions(opts.Limit)
		if err != nil {
			return err
		}
		return printResult(opts.Out, opts.JSON, map[string]any{"decisions": ds}, func(io.Writer) { evolve.WriteDecisions(opts.Out, ds) })
	}
	return opts.decideRun(root)
}

func (opts *EvolveOptions) decideRun(root string) error {
	d, err := opts.Decide(root, opts.Now(), opts.DryRun)
	if err != nil {
		return err
	}
	return opts.showDecided(d)
}

func (opts *EvolveOptions) showDecided(d factory.Decided) error {
	return printResult(opts.Out, opts.JSON, map[string]any{"decisions": d.Items, "dry_run": opts.DryRun, "rules": d.Rules}, func(io.Writer) { evolve.WriteItems(opts.Out, d.Items, opts.DryRun) })
}

// decideAll decides the candidates of every registered project, on the
// desk --home names when given (it must exist, as for every --home).
func (opts *EvolveOptions) decideAll() error {
	if err := opts.UseHome(opts.Home, "evolve"); err != nil {
		return err
	}
	return opts.DecideAll(opts.Now(), opts.DryRun, func(d factory.Decided) {
		fmt.Fprintf(opts.Out, "%s (%s):\n", d.Name, d.Path)
		if d.Err != nil {
			fmt.Fprintf(opts.Out, "  error: %v\n", d.Err)
		} else {
			opts.showDecided(d)
		}
	})
}

// shadowRun runs one pair for a recorded recall. It runs in the background
// (recall starts it detached), never inside a hook; its answers go to the
// records only, its problems to the log.
func (opts *EvolveOptions) shadowRun(p evolve.Project) error {
	sh := opts.Shadow(p.Root, p.PluginRoot)
	pair, err := p.Shadow(context.Background(), sh, opts.Run, runlog.Open(opts.Logs, 1<<20), opts.Nested())
	if err != nil {
		return err
	}
	return writeJSON(opts.Out, pair)
}
