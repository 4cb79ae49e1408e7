package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/spf13/cobra"
)

// CoreOptions are the inputs of `memhook core set|add`.
type CoreOptions struct {
	In         io.Reader
	Out        io.Writer
	Now        func() time.Time
	LongChange func(dir, action string, fn func(*longterm.Store, *config.Effective) error) (*longterm.Store, error)
	Action     string // set or add
	Text       string // "-" reads stdin
	Project    string
}

func newCmdCore(f *factory.Factory, runF func(*CoreOptions) error) *cobra.Command {
	opts := &CoreOptions{In: f.In, Out: f.Out, Now: f.Now, LongChange: f.LongChange}
	cmd := &cobra.Command{
		Use:   "core",
		Short: "Write CORE.md, the size-capped file injected into every session",
		Long: `core set replaces CORE.md's text (its frontmatter is kept); core add appends
lines. TEXT '-' reads stdin. The whole file must stay within long.core_max_chars
characters (default 2000): an edit that does not fit is refused, never cut.`,
	}
	for _, a := range []string{"set", "add"} {
		action := a
		sub := &cobra.Command{
			Use: action + " TEXT|-", Short: strings.ToUpper(action[:1]) + action[1:] + " CORE.md text within the size cap", Args: cobra.ExactArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				opts.Action, opts.Text = action, args[0]
				return runWith(runF, coreRun, opts)
			},
		}
		addWithProject(cmd, &opts.Project, sub)
	}
	cmd.AddCommand(newCmdCoreReview(f, nil))
	return cmd
}

func coreRun(opts *CoreOptions) error {
	text := opts.Text
	if text == "-" {
		b, err := io.ReadAll(opts.In)
		if err != nil {
			return fmt.Errorf("core %s: read stdin: %w", opts.Action, err)
		}
		text = strings.ReplaceAll(string(b), "\r\n", "\n")
	}
	var n, max int
	_, err := opts.LongChange(opts.Project, "core "+opts.Action, func(s *longterm.Store, eff *config.Effective) (err error) {
		edit := s.CoreSet
		if opts.Action == "add" {
			edit = s.CoreAdd
		}
		max = eff.Long.CoreMaxChars
		n, err = edit(text, max, opts.Now())
		return err
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.Out, "CORE.md: %d of %d characters\n", n, max)
	return nil
}
