package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/cerebro-mem/cerebro/internal/shortterm"
	"github.com/spf13/cobra"
)

// IndexOptions are the inputs of `memhook index`.
type IndexOptions struct {
	Out, Err    io.Writer
	Now         func() time.Time
	Terminal    bool
	ProjectRoot func(dir string) (string, error)
	OpenMemory  func(projectDir, rootDir, scope string) (*search.Memory, []string, error)
	ShortTerm   func(log *runlog.Log) *shortterm.Memory
	Logs        string
	Project     string
	Root        string
	Scope       string
	// Background: the run SessionStart starts (shortterm.Memory.IndexRun),
	// the project's memory within a budget, printing nothing.
	Background bool
}

func newCmdIndex(f *factory.Factory, runF func(*IndexOptions) error) *cobra.Command {
	opts := &IndexOptions{Out: f.Out, Err: f.Err, Now: f.Now, Terminal: f.Terminal, ProjectRoot: f.ProjectRoot, OpenMemory: f.OpenMemory, ShortTerm: f.ShortTerm, Logs: f.Paths.Logs()}
	cmd := &cobra.Command{
		Use:   "index",
		Short: "Bring the memory search indexes up to date",
		Long: `Index the Markdown memory of the project (short-term, long-term, Claude Code's
auto-memory) and of the org desk into the desk's one SQLite index in the state
dir. Only changed files are read again; a change of chunking, tokenizer or
embedding model rebuilds an index.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWith(runF, indexRun, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project")
	cmd.Flags().StringVar(&opts.Root, "root", "", "index only this folder of Markdown files")
	cmd.Flags().StringVar(&opts.Scope, "scope", "all", "which memory: project, org or all")
	cmd.Flags().BoolVar(&opts.Background, "background", false, "the run SessionStart starts: this project's memory, within a budget")
	cmd.Flags().MarkHidden("background")
	return cmd
}

// validate checks --scope before any index is opened.
func (opts *IndexOptions) validate() error { return checkScopeFlag("index", opts.Root, opts.Scope) }

func indexRun(opts *IndexOptions) error {
	if err := opts.validate(); err != nil {
		return err
	}
	if opts.Background {
		root, err := opts.ProjectRoot(opts.Project)
		if err != nil {
			return err
		}
		return opts.ShortTerm(runlog.Open(opts.Logs, 1<<20)).IndexRun(context.Background(), root)
	}
	m, notes, err := opts.OpenMemory(opts.Project, opts.Root, opts.Scope)
	if err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintf(opts.Err, "memhook: note: %s\n", n)
	}
	return m.UpdateText(context.Background(), opts.Now(), opts.Out, opts.Err, opts.Terminal)
}
