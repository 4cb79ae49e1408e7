package cli

import (
	"errors"
	"io"
	"os"
	"time"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
)

// InstructionOptions are the inputs of `memhook instruction`. The command
// is hidden from help: it is the person's, and the model is never told of
// it (docs/skills.md).
type InstructionOptions struct {
	In          io.Reader
	Out         io.Writer
	Now         func() time.Time
	Getenv      func(string) string
	Nested      func() bool
	ProjectRoot func(dir string) (string, error)
	Skills      func(root string) evolve.Project
	Action      string // reset, set-reference
	Project     string
	From        string
	JSON        bool
	// StdinTerminal says whether stdin is a terminal: set-reference asks a
	// person and refuses without one.
	StdinTerminal bool
}

// instructionOptions are what `memhook instruction` uses of f.
func instructionOptions(f *factory.Factory) *InstructionOptions {
	return &InstructionOptions{In: f.In, Out: f.Out, Now: f.Now, Getenv: f.Getenv, Nested: f.Nested, ProjectRoot: f.ProjectRoot, Skills: f.Skills}
}

func newCmdInstruction(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:    "instruction",
		Short:  "The person's insurance: return the memory instruction to its reference copy",
		Hidden: true,
	}
	opts := instructionOptions(f)
	return addVerbs(cmd, []verb{
		{"reset", "Restore the memory instruction from the reference copy, in one commit, touching nothing else", nil},
		{"set-reference", "Make the current (or --from) memory instruction the reference; a person at a terminal only", nil},
	}, func(c *cobra.Command, name string) {
		c.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project")
		if name == "set-reference" {
			c.Flags().StringVar(&opts.From, "from", "", "take the reference from this file instead of the instruction in use")
		} else {
			c.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
		}
	}, func(name string, args []string) error {
		opts.Action = name
		if fh, ok := opts.In.(*os.File); ok {
			opts.StdinTerminal = isatty.IsTerminal(fh.Fd()) || isatty.IsCygwinTerminal(fh.Fd())
		}
		return instructionRun(opts)
	})
}

func instructionRun(opts *InstructionOptions) error {
	root, err := opts.ProjectRoot(opts.Project)
	if err != nil {
		return err
	}
	p := opts.Skills(root)
	if opts.Action == "set-reference" {
		// A model could call it as easily as a person.
		if err := personOnly(opts.Getenv, opts.Nested, "instruction set-reference", opts.StdinTerminal); err != nil {
			return err
		}
		err := p.SetReferenceAsking(opts.In, opts.Out, opts.From, opts.Now())
		if errors.Is(err, evolve.ErrNoInstruction) {
			return hint.Wrap(err, "name the file with --from")
		}
		return err
	}
	done, err := p.ResetInstruction(opts.Now())
	switch {
	case errors.Is(err, evolve.ErrNoInstruction):
		return hint.Wrap(err, "run it in the project, with the plugin installed")
	case err != nil:
		return hint.Wrap(err, "a person can take a new reference with `memhook instruction set-reference`")
	}
	return printResult(opts.Out, opts.JSON, map[string]any{"restored": done}, func(io.Writer) { evolve.WriteRestored(opts.Out, done) })
}
