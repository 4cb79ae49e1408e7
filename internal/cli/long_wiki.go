package cli

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/spf13/cobra"
)

// WikiOptions are the inputs of `memhook wiki graph|index|write`: what
// they use of the factory, named, and their arguments and flags.
type WikiOptions struct {
	In             io.Reader
	Out            io.Writer
	Now            func() time.Time
	LongStore      func(dir string) (*longterm.Store, string, error)
	LongChange     func(dir, action string, fn func(*longterm.Store, *config.Effective) error) (*longterm.Store, error)
	KeepSecretsOut func(dir, name string, data []byte) ([]byte, error)
	Action         string // graph, index or write
	Project        string
	Page           string // write: PAGE relative to .claude/memory_long
	From           string // write: a file with the text, "-" for stdin
}

func newCmdWiki(f *factory.Factory) *cobra.Command {
	opts := &WikiOptions{In: f.In, Out: f.Out, Now: f.Now, LongStore: f.LongStore, LongChange: f.LongChange, KeepSecretsOut: f.KeepSecretsOut}
	cmd := &cobra.Command{Use: "wiki", Short: "Write a long-term page; rebuild the wiki's graph file and index.md"}
	cmd.AddCommand(actionCommands([]action{
		{"graph", "Rebuild .claude/memory_long/graph.json from the pages"},
		{"index", "Rebuild index.md's catalogue by type (text above its marker is kept)"},
	}, &opts.Project, func(action string) error {
		opts.Action = action
		return wikiRun(opts)
	})...)
	write := &cobra.Command{
		Use:   "write PAGE",
		Short: "Create or replace a page of .claude/memory_long with text from stdin or --from",
		Long: `write creates or replaces PAGE (a .md path relative to .claude/memory_long,
e.g. wiki/_private/Decisions.md) with the text read from stdin (or --from FILE),
appends log.md and refreshes index.md and the graph. Claude Code refuses its
Write and Edit tools on files under .claude/ ("sensitive file"), so the model
writes long-term pages with this command. raw/, log.md and CORE.md are refused
(CORE.md has memhook core), and so is a План-факт.md that breaks its contract.`,
		Example: "  memhook wiki write wiki/_private/Decisions.md <<'EOF'\n  ---\n  type: decision\n  ---\n  ...\n  EOF",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Action, opts.Page = "write", args[0]
			return wikiRun(opts)
		},
	}
	write.Flags().StringVar(&opts.From, "from", "-", "file with the page's text ('-' reads stdin)")
	addWithProject(cmd, &opts.Project, write)
	return cmd
}

// wikiWrite is `memhook wiki write PAGE`.
func wikiWrite(opts *WikiOptions) error {
	// Bounded, a regular file only: a FIFO named here once hung forever.
	text, err := safefs.ReadTextArgument(opts.From, opts.In, maxPageBytes)
	if errors.Is(err, safefs.ErrTooLarge) {
		return hint.Wrap(fmt.Errorf("wiki write: the text is over %d bytes", maxPageBytes), "split it into several pages")
	}
	if err != nil {
		return fmt.Errorf("wiki write: read the text: %w", err)
	}
	if text, err = opts.KeepSecretsOut(opts.Project, opts.From, text); err != nil {
		return fmt.Errorf("wiki write: %w", err)
	}
	var res *longterm.PageWriteResult
	s, err := opts.LongChange(opts.Project, "wiki write "+opts.Page, func(s *longterm.Store, _ *config.Effective) (err error) {
		res, err = s.WritePage(opts.Page, text, opts.Now())
		return err
	})
	if err != nil {
		return err
	}
	res.WriteText(opts.Out, s.Path(res.Page))
	return nil
}

// maxPageBytes bounds one page written through memhook.
const maxPageBytes = 1 << 20

func wikiRun(opts *WikiOptions) error {
	if opts.Action == "write" {
		return wikiWrite(opts)
	}
	s, _, err := opts.LongStore(opts.Project)
	if err != nil {
		return err
	}
	name, changed, err := s.Rebuild(opts.Action, opts.Now())
	if err != nil {
		return err
	}
	if !changed {
		fmt.Fprintf(opts.Out, "%s is up to date\n", s.Path(name))
		return nil
	}
	fmt.Fprintf(opts.Out, "%s rebuilt\n", s.Path(name))
	return nil
}
