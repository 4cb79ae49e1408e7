package cli

import (
	"fmt"

	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/spf13/cobra"
)

// WikiOptions are the inputs of `memhook wiki graph|index`.
type WikiOptions struct {
	*Factory
	Action  string // graph or index
	Project string
}

func newCmdWiki(f *Factory, runF func(*WikiOptions) error) *cobra.Command {
	opts := &WikiOptions{Factory: f}
	cmd := &cobra.Command{Use: "wiki", Short: "Rebuild the long-term wiki's graph file and index.md"}
	for _, a := range []struct{ name, short string }{
		{"graph", "Rebuild .claude/memory_long/graph.json from the pages"},
		{"index", "Rebuild index.md's catalogue by type (text above its marker is kept)"},
	} {
		action := a.name
		sub := &cobra.Command{
			Use: action, Short: a.short, Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				opts.Action = action
				if runF != nil {
					return runF(opts)
				}
				return wikiRun(opts)
			},
		}
		sub.Flags().StringVar(&opts.Project, "project", ".", "a directory inside the project")
		cmd.AddCommand(sub)
	}
	return cmd
}

func wikiRun(opts *WikiOptions) error {
	s, _, err := opts.longStore(opts.Project)
	if err != nil {
		return err
	}
	now := opts.Now()
	name, rebuild := longterm.GraphFile, s.RebuildGraph
	if opts.Action == "index" {
		name, rebuild = longterm.IndexFile, s.RebuildIndex
	}
	changed, err := rebuild()
	if err != nil {
		return fmt.Errorf("wiki %s: %w", opts.Action, err)
	}
	if !changed {
		fmt.Fprintf(opts.Out, "%s is up to date\n", s.Path(name))
		return nil
	}
	if err := s.Log(now, "wiki "+opts.Action, name+" rebuilt"); err != nil {
		return err
	}
	fmt.Fprintf(opts.Out, "%s rebuilt\n", s.Path(name))
	return nil
}
