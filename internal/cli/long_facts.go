package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"

	"github.com/spf13/cobra"
)

// FactOptions are the inputs of `memhook fact add`.
type FactOptions struct {
	Out        io.Writer
	Now        func() time.Time
	LongChange func(dir, action string, fn func(*longterm.Store, *config.Effective) error) (*longterm.Store, error)
	Page       string
	Text       string
	Evidence   string
	Time       string
	Project    string
}

func newCmdFact(f *factory.Factory, runF func(*FactOptions) error) *cobra.Command {
	opts := &FactOptions{Out: f.Out, Now: f.Now, LongChange: f.LongChange}
	cmd := &cobra.Command{Use: "fact", Short: "Append dated facts to long-term pages"}
	add := &cobra.Command{
		Use:   "add PAGE TEXT --evidence daily/YYYY-MM-DD [--time HH:MM]",
		Short: "Append '- DAY: TEXT · [[daily/DAY]] HH:MM' to the page's facts section",
		Long: `add appends a dated fact to the "## Facts" section of PAGE (a .md path
relative to .claude/memory_long, e.g. wiki/Решения.md), creating the section
when missing. Existing lines are never rewritten. The evidence day must exist
in short-term memory (daily/ or daily/_archive/).`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Page, opts.Text = args[0], args[1]
			return runWith(runF, factRun, opts)
		},
	}
	add.Flags().StringVar(&opts.Evidence, "evidence", "", "the day the fact comes from: daily/YYYY-MM-DD (required)")
	add.Flags().StringVar(&opts.Time, "time", "", "time of day in the evidence, HH:MM")
	add.Flags().StringVar(&opts.Project, "project", ".", "a directory inside the project")
	add.MarkFlagRequired("evidence")
	cmd.AddCommand(add, newCmdFactMerge(f, nil))
	return cmd
}

// validate checks the forms of --evidence and --time before the store is
// opened; whether the day exists is the store's question.
func (opts *FactOptions) validate() error {
	day, ok := longterm.EvidenceDay(opts.Evidence)
	if _, err := time.Parse(time.DateOnly, day); !ok || err != nil {
		return usagef("for example --evidence daily/2026-11-30", "fact add: --evidence %q: want daily/YYYY-MM-DD", opts.Evidence)
	}
	return checkClockFlag("fact add", "time", opts.Time)
}

func factRun(opts *FactOptions) error {
	if err := opts.validate(); err != nil {
		return err
	}
	var res *longterm.FactResult
	_, err := opts.LongChange(opts.Project, "fact add "+opts.Page, func(s *longterm.Store, _ *config.Effective) (err error) {
		res, err = s.FactAdd(opts.Page, opts.Text, opts.Evidence, opts.Time, opts.Now())
		return err
	})
	if err != nil {
		return err
	}
	res.WriteText(opts.Out)
	return nil
}

// TruthOptions are the inputs of `memhook truth hash|set`.
type TruthOptions struct {
	In             io.Reader
	Out            io.Writer
	Now            func() time.Time
	LongStore      func(dir string) (*longterm.Store, string, error)
	KeepSecretsOut func(dir, name string, data []byte) ([]byte, error)
	MemoryCommit   func(s *longterm.Store, root, action string, fn func() error) error
	Action         string // hash or set
	Page           string
	From           string
	Expect         string
	Project        string
}

func newCmdTruth(f *factory.Factory) *cobra.Command {
	opts := &TruthOptions{In: f.In, Out: f.Out, Now: f.Now, LongStore: f.LongStore, KeepSecretsOut: f.KeepSecretsOut, MemoryCommit: f.MemoryCommit}
	cmd := &cobra.Command{Use: "truth", Short: "Read the hash of a page or replace its compiled truth"}
	hash := &cobra.Command{
		Use: "hash PAGE", Short: "Print the page's hash, to pass to truth set --expect-hash", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Action, opts.Page = "hash", args[0]
			return truthRun(opts)
		},
	}
	set := &cobra.Command{
		Use:   "set PAGE --from FILE --expect-hash H",
		Short: "Replace the compiled-truth section if the page still has hash H",
		Long: `set replaces the "## Compiled truth" section of PAGE with the text of FILE
('-' reads stdin) only if the page still hashes to H; the old truth moves to
the page's "## Archive" section. If the page changed, nothing on it changes:
the proposal is kept in PAGE.truth-pending.md and the command fails.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Action, opts.Page = "set", args[0]
			return truthRun(opts)
		},
	}
	set.Flags().StringVar(&opts.From, "from", "", "file with the new truth ('-' for stdin)")
	set.Flags().StringVar(&opts.Expect, "expect-hash", "", "hash printed by truth hash when the page was read")
	set.MarkFlagRequired("from")
	set.MarkFlagRequired("expect-hash")
	addWithProject(cmd, &opts.Project, hash, set)
	return cmd
}

func truthRun(opts *TruthOptions) error {
	s, root, err := opts.LongStore(opts.Project)
	if err != nil {
		return err
	}
	if opts.Action == "hash" {
		h, err := s.TruthHash(opts.Page)
		if err != nil {
			return err
		}
		fmt.Fprintln(opts.Out, h)
		return nil
	}
	text, err := safefs.ReadTextArgument(opts.From, opts.In, s.NoteBytes)
	if err != nil {
		return fmt.Errorf("truth set: read the new truth: %w", err)
	}
	if text, err = opts.KeepSecretsOut(opts.Project, opts.From, text); err != nil {
		return fmt.Errorf("truth set: %w", err)
	}
	if err := opts.MemoryCommit(s, root, "truth set "+opts.Page, func() error { return s.TruthSet(opts.Page, text, opts.Expect, opts.Now()) }); err != nil {
		return err
	}
	fmt.Fprintf(opts.Out, "%s: compiled truth replaced; the old one is in its archive section\n", opts.Page)
	return nil
}
