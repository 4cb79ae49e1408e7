package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/spf13/cobra"
)

// LongHistoryOptions are the inputs of `memhook long log|diff|revert`.
type LongHistoryOptions struct {
	Out       io.Writer
	Now       func() time.Time
	Warn      func(msg string)
	LongStore func(dir string) (*longterm.Store, string, error)
	History   func(s *longterm.Store, root string) (*longterm.History, error)
	Action    string
	Path      string
	Rev       string
	Limit     int
	JSON      bool
	Project   string
}

func newLongHistoryCmds(f *factory.Factory) []*cobra.Command {
	var out []*cobra.Command
	for _, a := range []action{
		{"log", "List the commits of long-term memory (or of PATH), newest first"},
		{"diff", "Show what the latest commit of PATH (or --rev) changed"},
		{"revert", "Restore PATH's previous committed version as a new commit"},
	} {
		opts := &LongHistoryOptions{Out: f.Out, Now: f.Now, Warn: f.Warn, LongStore: f.LongStore, History: f.History, Action: a.name}
		use := a.name + " [PATH]"
		args := cobra.MaximumNArgs(1)
		if a.name == "revert" {
			use, args = a.name+" PATH", cobra.ExactArgs(1)
		}
		c := &cobra.Command{
			Use: use, Short: a.short, Args: args,
			RunE: func(cmd *cobra.Command, args []string) error {
				if len(args) > 0 {
					opts.Path = args[0]
				}
				return longHistoryRun(opts)
			},
		}
		c.Flags().StringVar(&opts.Project, "project", ".", "a directory inside the project")
		c.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
		switch a.name {
		case "log":
			c.Flags().IntVar(&opts.Limit, "limit", 20, "at most this many commits (0: all)")
		case "diff":
			c.Flags().StringVar(&opts.Rev, "rev", "", "the commit to show (default: the latest touching PATH)")
		}
		out = append(out, c)
	}
	return out
}

// validate checks the flags before the store is opened.
func (opts *LongHistoryOptions) validate() error {
	return checkMinFlag("long "+opts.Action, "limit", opts.Limit, 0)
}

func longHistoryRun(opts *LongHistoryOptions) error {
	if err := opts.validate(); err != nil {
		return err
	}
	s, root, err := opts.LongStore(opts.Project)
	if err != nil {
		return err
	}
	h, err := opts.History(s, root)
	if err != nil {
		return fmt.Errorf("long %s: %w", opts.Action, err)
	}
	v, err := h.Show(longterm.HistoryQuery{Action: opts.Action, Path: opts.Path, Rev: opts.Rev, Limit: opts.Limit, Now: opts.Now(), Warn: opts.Warn})
	if err != nil {
		return err
	}
	return printResult(opts.Out, opts.JSON, v.JSON(), v.WriteText)
}

// FactMergeOptions are the inputs of `memhook fact merge`.
type FactMergeOptions struct {
	In           io.Reader
	Out          io.Writer
	Now          func() time.Time
	Getenv       func(string) string
	Nested       func() bool
	LongStore    func(dir string) (*longterm.Store, string, error)
	MemoryCommit func(s *longterm.Store, root, action string, fn func() error) error
	Page         string
	From         string
	Yes          bool
	Project      string
	// StdinTerminal says whether stdin is a terminal: a merge rewrites two
	// cards, and only the person confirms it there.
	StdinTerminal bool
}

func newCmdFactMerge(f *factory.Factory, runF func(*FactMergeOptions) error) *cobra.Command {
	opts := &FactMergeOptions{In: f.In, Out: f.Out, Now: f.Now, Getenv: f.Getenv, Nested: f.Nested, LongStore: f.LongStore, MemoryCommit: f.MemoryCommit}
	c := &cobra.Command{
		Use:   "merge PAGE --from OTHER [--yes]",
		Short: "Fold OTHER's dated facts into PAGE, in date order, leaving a redirect page",
		Long: `merge prints its plan and asks before it writes: PAGE gets both pages'
dated facts in date order (a fact both hold keeps both evidence links),
OTHER's remaining text goes to PAGE's archive section, and OTHER becomes a
redirect page linking PAGE. One commit records it. Only a person confirms a
merge: it is refused inside Claude Code, inside cerebro's own model calls and
without a terminal on stdin (--yes skips the question, not that check).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Page = args[0]
			opts.StdinTerminal = stdinIsTerminal(opts.In)
			return runWith(runF, factMergeRun, opts)
		},
	}
	c.Flags().StringVar(&opts.From, "from", "", "the card folded into PAGE (required)")
	c.Flags().BoolVar(&opts.Yes, "yes", false, "merge without asking (still only at a terminal, outside Claude Code)")
	c.Flags().StringVar(&opts.Project, "project", ".", "a directory inside the project")
	return c
}

func factMergeRun(opts *FactMergeOptions) error {
	if opts.From == "" {
		return usagef("name the card to fold into PAGE, e.g. --from wiki/Old.md", "fact merge: --from OTHER is required")
	}
	s, root, err := opts.LongStore(opts.Project)
	if err != nil {
		return err
	}
	if err := personOnly(opts.Getenv, opts.Nested, "fact merge", opts.StdinTerminal); err != nil {
		return err
	}
	return s.MergeAsking(longterm.MergeDialog{Page: opts.Page, From: opts.From, Yes: opts.Yes, In: opts.In, Out: opts.Out, Now: opts.Now(),
		Commit: func(action string, fn func() error) error { return opts.MemoryCommit(s, root, action, fn) }})
}
