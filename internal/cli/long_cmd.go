package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/project"
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
	root, err := opts.projectRoot(opts.Project)
	if err != nil {
		return err
	}
	s := longterm.New(root)
	s.GitUser = opts.gitUser()
	s.NoteBytes, s.IngestBytes = opts.noteBytes(root), opts.limits(root).IngestBytes
	now := opts.Now()
	reg := opts.Paths.Registry()
	id := project.ID(root)
	switch opts.Action {
	case "on":
		rep, err := s.TurnOn(reg, func() (*longterm.History, error) { return opts.history(s, root) }, now)
		if errors.Is(err, longterm.ErrRegister) {
			return withHint(fmt.Errorf("long on: %w", err), "the scaffold is in place; fix the registry (see `memhook long status`) and run `memhook long on` again")
		}
		if err != nil {
			return fmt.Errorf("long on: %w", err)
		}
		fmt.Fprintf(opts.Out, "long-term memory on: %s\n", s.Dir)
		if len(rep.Created) > 0 {
			fmt.Fprintf(opts.Out, "created: %s\n", strings.Join(rep.Created, ", "))
		}
		if len(rep.Kept) > 0 {
			fmt.Fprintf(opts.Out, "kept (already there, not touched): %s\n", strings.Join(rep.Kept, ", "))
		}
		fmt.Fprintf(opts.Out, "registered with the org desk as %s (%s)\n", rep.ID, reg)
		switch h := rep.History; {
		case rep.HistoryErr != nil:
			fmt.Fprintf(opts.Err, "memhook: warning: no history for long-term memory: %v\n", rep.HistoryErr)
		case h.Versioned():
			if rep.CommitErr != nil {
				fmt.Fprintf(opts.Err, "memhook: warning: %v\n", rep.CommitErr)
			}
			fmt.Fprintf(opts.Out, "history: every change memhook makes is a commit in %s (`memhook long log`)\n", h.Repo.Root())
		default:
			fmt.Fprintf(opts.Out, "history: %s\n", h.Note)
		}
		return nil
	case "off":
		found, err := s.TurnOff(reg, now)
		if err != nil {
			return fmt.Errorf("long off: %w", err)
		}
		fmt.Fprintf(opts.Out, "long-term memory off for %s; every file is kept in %s\n", root, s.Dir)
		if found {
			fmt.Fprintln(opts.Out, "unregistered from the org desk")
		} else {
			fmt.Fprintln(opts.Out, "was not registered with the org desk")
		}
		return nil
	}
	st, err := s.Status()
	if err != nil {
		return fmt.Errorf("long status: %w", err)
	}
	registered, regErr := s.Registered(reg)
	if opts.JSON {
		return indentJSON(opts.Out, map[string]any{"project": root, "id": id, "status": st, "registered": registered, "registry_error": regErr})
	}
	fmt.Fprintf(opts.Out, "project:     %s (%s)\n", root, id)
	fmt.Fprintf(opts.Out, "long-term:   %s\n", st.Dir)
	state := "absent"
	if st.Exists && st.Active {
		state = "on"
	} else if st.Exists {
		state = "off (files kept)"
	}
	fmt.Fprintf(opts.Out, "state:       %s\n", state)
	fmt.Fprintf(opts.Out, "registered:  %v\n", registered)
	if regErr != "" {
		fmt.Fprintf(opts.Out, "registry:    %s\n", regErr)
	}
	if !st.Exists {
		fmt.Fprintln(opts.Out, "run `memhook long on` to create it")
		return nil
	}
	fmt.Fprintf(opts.Out, "files:       %s\n", strings.Join(st.Present, ", "))
	if len(st.Missing) > 0 {
		fmt.Fprintf(opts.Out, "missing:     %s (`memhook long on` adds them)\n", strings.Join(st.Missing, ", "))
	}
	fmt.Fprintf(opts.Out, "pages:       %d in wiki/ (%d in wiki/_private/), %d files in raw/\n", st.Pages, st.PrivatePages, st.RawFiles)
	if st.PlanFactValid {
		fmt.Fprintln(opts.Out, "plan-fact:   valid")
	} else {
		fmt.Fprintf(opts.Out, "plan-fact:   %d problem(s): %s\n", len(st.PlanFactErrors), strings.Join(st.PlanFactErrors, "; "))
	}
	fmt.Fprintf(opts.Out, "CORE.md:     %d characters\n", st.CoreChars)
	return nil
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
