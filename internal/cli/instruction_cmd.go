package cli

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
)

// InstructionOptions are the inputs of `memhook instruction`. The command
// is hidden from help: it is the person's, and the model is never told of
// it (docs/skills.md).
type InstructionOptions struct {
	*Factory
	Action  string // reset, set-reference
	Project string
	From    string
	JSON    bool
	// StdinTerminal says whether stdin is a terminal: set-reference asks a
	// person and refuses without one.
	StdinTerminal bool
}

func newCmdInstruction(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:    "instruction",
		Short:  "The person's insurance: return the memory instruction to its reference copy",
		Hidden: true,
	}
	for _, a := range []struct{ use, short string }{
		{"reset", "Restore the memory instruction from the reference copy, in one commit, touching nothing else"},
		{"set-reference", "Make the current (or --from) memory instruction the reference; a person at a terminal only"},
	} {
		opts := &InstructionOptions{Factory: f, Action: a.use}
		sub := &cobra.Command{
			Use:   a.use,
			Short: a.short,
			Args:  cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				if fh, ok := opts.In.(*os.File); ok {
					opts.StdinTerminal = isatty.IsTerminal(fh.Fd()) || isatty.IsCygwinTerminal(fh.Fd())
				}
				return instructionRun(opts)
			},
		}
		sub.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project")
		if a.use == "set-reference" {
			sub.Flags().StringVar(&opts.From, "from", "", "take the reference from this file instead of the instruction in use")
		} else {
			sub.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
		}
		cmd.AddCommand(sub)
	}
	return cmd
}

func instructionRun(opts *InstructionOptions) error {
	root, err := opts.projectRoot(opts.Project)
	if err != nil {
		return err
	}
	ref := opts.reference()
	files := opts.skills(root).InstructionFiles()
	if opts.Action == "set-reference" {
		return opts.setReference(ref, files)
	}
	if len(files) == 0 {
		return withHint(errors.New("instruction reset: no memory skill found"), "run it in the project, with the plugin installed")
	}
	if _, err := ref.EnsureInitial(files, opts.Now()); err != nil {
		return err
	}
	done, err := ref.Reset(files, opts.Now())
	if err != nil {
		return withHint(fmt.Errorf("instruction reset: %w", err), "a person can take a new reference with `memhook instruction set-reference`")
	}
	if opts.JSON {
		return printObject(opts.Out, map[string]any{"restored": done}, nil)
	}
	for _, d := range done {
		switch {
		case d.Commit != "":
			fmt.Fprintf(opts.Out, "restored %s (commit %.12s)\n", d.File, d.Commit)
		case d.Changed:
			fmt.Fprintf(opts.Out, "restored %s\n", d.File)
		default:
			fmt.Fprintf(opts.Out, "%s already is the reference\n", d.File)
		}
	}
	return nil
}

// setReference replaces the reference after a person confirms. A model
// could call it as easily as a person, so it refuses wherever a model may be
// the one typing: inside Claude Code, inside cerebro's own claude -p, or
// without a terminal on stdin.
func (opts *InstructionOptions) setReference(ref evolve.Reference, files []string) error {
	hint := "run it yourself, in a terminal outside Claude Code"
	switch {
	case opts.Getenv("CLAUDECODE") != "":
		return withHint(errors.New("instruction set-reference: refused inside Claude Code (CLAUDECODE is set)"), hint)
	case opts.Getenv(claude.NestedEnv) != "" || claude.Nested(opts.Environ()):
		return withHint(errors.New("instruction set-reference: refused inside a nested model call"), hint)
	case !opts.StdinTerminal:
		return withHint(errors.New("instruction set-reference: refused without a terminal: a person must confirm"), hint)
	}
	src := opts.From
	if src == "" {
		if len(files) == 0 {
			return withHint(errors.New("instruction set-reference: no memory skill found"), "name the file with --from")
		}
		src = files[len(files)-1] // the one in use: the evolving copy when there is one
	}
	if opts.From != "" {
		if _, err := safefs.ArgumentPath(opts.From); err != nil {
			return fmt.Errorf("instruction set-reference: read %s: %w", src, err)
		}
	}
	data, err := evolve.ReadSkill(src)
	if err != nil {
		return fmt.Errorf("instruction set-reference: read %s: %w", src, err)
	}
	fmt.Fprintf(opts.Out, "The reference is what `memhook instruction reset` restores. Make %s (%d bytes) the new reference?\nType yes to confirm: ", src, len(data))
	in := bufio.NewScanner(opts.In)
	if !in.Scan() || strings.TrimSpace(in.Text()) != "yes" {
		return errors.New("instruction set-reference: not confirmed; the reference is unchanged")
	}
	m, err := ref.Set(map[string][]byte{evolve.InstructionName: data}, src, opts.Now())
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.Out, "reference set from %s (sha256 %.16s…)\n", src, m.Files[0].SHA256)
	return nil
}
