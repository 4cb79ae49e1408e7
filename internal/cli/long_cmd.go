package cli

import (
	"errors"
	"fmt"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/spf13/cobra"
)

// LongOptions are the inputs of `memhook long on|off|status`.
type LongOptions struct {
	*Factory
	Action  string // on, off or status
	Project string
	JSON    bool
}

func newCmdLong(f *Factory) *cobra.Command {
	opts := &LongOptions{Factory: f}
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
	cmd.AddCommand(newCmdLongSync(f))
	return cmd
}

func longRun(opts *LongOptions) error {
	s, root, err := opts.longStore(opts.Project)
	if err != nil {
		return err
	}
	reg := opts.Paths.Registry()
	switch opts.Action {
	case "on":
		rep, err := s.TurnOn(reg, func() (*longterm.History, error) { return opts.history(s, root) }, opts.Now())
		if errors.Is(err, longterm.ErrRegister) {
			return withHint(fmt.Errorf("long on: %w", err), "the scaffold is in place; fix the registry (see `memhook long status`) and run `memhook long on` again")
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
	return printEscaped(opts.Out, opts.JSON, st, st.WriteText)
}

// longStore opens the long-term memory of the project around dir.
func (f *Factory) longStore(dir string) (*longterm.Store, string, error) {
	root, err := f.projectRoot(dir)
	if err != nil {
		return nil, "", err
	}
	s := longterm.New(root)
	s.GitUser = f.gitUser()
	s.NoteBytes, s.IngestBytes = f.noteBytes(root), f.limits(root).IngestBytes
	return s, root, nil
}

// longChange opens the long-term memory of the project around dir and
// runs fn on it, with the project's settings, as one change committed as
// action (memoryCommit). It returns the store for the report.
func (f *Factory) longChange(dir, action string, fn func(*longterm.Store, *config.Effective) error) (*longterm.Store, error) {
	s, root, err := f.longStore(dir)
	if err != nil {
		return nil, err
	}
	return s, f.memoryCommit(s, root, action, func() error { return fn(s, f.Config(root)) })
}
