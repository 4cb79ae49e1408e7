package cli

import (
	"encoding/json"
	"io"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/spf13/cobra"
)

// GetOptions are the inputs of `memhook get`: what it uses of the
// factory, named (a test sets these two alone), and its flags.
type GetOptions struct {
	Out        io.Writer
	OpenMemory func(projectDir, rootDir, scope string) (*search.Memory, []string, error)
	Project    string
	Path       string
	From       int
	Lines      int
}

func newCmdGet(f *factory.Factory, runF func(*GetOptions) error) *cobra.Command {
	opts := &GetOptions{Out: f.Out, OpenMemory: f.OpenMemory}
	cmd := &cobra.Command{
		Use:   "get PATH",
		Short: "Read a memory file, or some of its lines, as JSON",
		Long: `Print {"text": ..., "path": ...} for a Markdown file inside the memory roots
(a path relative to the project root, as search prints it, or absolute). A
memory file that does not exist yet reads as empty text; paths outside the
memory roots are refused.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Path = args[0]
			return runWith(runF, getRun, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project")
	cmd.Flags().IntVar(&opts.From, "from", 1, "first line to read (1-based)")
	cmd.Flags().IntVar(&opts.Lines, "lines", 0, "number of lines to read (0: to the end)")
	return cmd
}

// validate checks --from and --lines before any file is read.
func (opts *GetOptions) validate() error {
	if err := checkMinFlag("get", "from", opts.From, 1); err != nil {
		return err
	}
	return checkMinFlag("get", "lines", opts.Lines, 0)
}

func getRun(opts *GetOptions) error {
	if err := opts.validate(); err != nil {
		return err
	}
	m, _, err := opts.OpenMemory(opts.Project, "", string(search.GetScope(opts.Path)))
	if err != nil {
		return err
	}
	got, err := m.Get(opts.Path, opts.From, opts.Lines)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(opts.Out)
	enc.SetEscapeHTML(false)
	return enc.Encode(got)
}
