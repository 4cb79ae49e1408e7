package cli

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/spf13/cobra"
)

// LongOptions are the inputs of `memhook long on|off|status`.
type LongOptions struct {
	Out, Err  io.Writer
	Now       func() time.Time
	LongStore func(dir string) (*longterm.Store, string, error)
	History   func(s *longterm.Store, root string) (*longterm.History, error)
	Registry  string
	Action    string // on, off or status
	Project   string
	JSON      bool
}

func newCmdLong(f *factory.Factory) *cobra.Command {
	opts := &LongOptions{Out: f.Out, Err: f.Err, Now: f.Now, LongStore: f.LongStore, History: f.History, Registry: f.Paths.Registry()}
	cmd := &cobra.Command{
		Use:   "long",
		Short: "Switch project long-term memory on or off, or show its state",
		Long: `long on lays out .claude/memory_long/ (SCHEMA.md, index.md, log.md, CORE.md,
План-факт.md, raw/, wiki/, wiki/_private/), creating only what is missing, and
registers the project with the org desk. long off unregisters it and keeps
every file. long status says what is there.`,
	}
	subs := actionCommands([]action{
		{"on", "Create the scaffold (only what is missing) and register the project"},
		{"off", "Unregister the project; every file is kept"},
		{"status", "Show what long-term memory holds"},
	}, &opts.Project, func(action string) error {
		opts.Action = action
		return longRun(opts)
	})
	subs[2].Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	cmd.AddCommand(subs...)
	cmd.AddCommand(newLongHistoryCmds(f)...)
	cmd.AddCommand(newCmdLongSync(f, nil))
	return cmd
}

func longRun(opts *LongOptions) error {
	s, root, err := opts.LongStore(opts.Project)
	if err != nil {
		return err
	}
	reg := opts.Registry
	switch opts.Action {
	case "on":
		rep, err := s.TurnOn(reg, func() (*longterm.History, error) { return opts.History(s, root) }, opts.Now())
		if errors.Is(err, longterm.ErrRegister) {
			return hint.Wrap(fmt.Errorf("long on: %w", err), "the scaffold is in place; fix the registry (see `memhook long status`) and run `memhook long on` again")
		}
		if err != nil {
			return fmt.Errorf("long on: %w", err)
		}
		rep.WriteText(opts.Out, opts.Err, s.Dir, reg)
		return nil
	case "off":
		found, err := s.TurnOff(reg, opts.Now())
		if err != nil {
			return fmt.Errorf("long off: %w", err)
		}
		s.WriteOff(opts.Out, found)
		return nil
	}
	st, err := s.ProjectStatus(reg)
	if err != nil {
		return fmt.Errorf("long status: %w", err)
	}
	return printResult(opts.Out, opts.JSON, st, st.WriteText)
}
