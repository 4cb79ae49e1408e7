package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/recall/kgraph"
	"github.com/spf13/cobra"
)

// GraphOptions are the inputs of `memhook graph ask|link`.
type GraphOptions struct {
	Out         io.Writer
	ProjectRoot func(dir string) (string, error)
	GraphLink   func(root, from, to, rel, source string) (kgraph.Relation, error)
	Action      string // ask, link
	Question    string
	From, To    string
	Rel         string
	Source      string
	Project     string
	JSON        bool
}

func newCmdGraph(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "graph",
		Short: "Answer from the knowledge graph (wiki links and recorded relations, with citations) or record a relation",
	}
	ask := &GraphOptions{Out: f.Out, ProjectRoot: f.ProjectRoot, GraphLink: f.GraphLink, Action: "ask"}
	askCmd := &cobra.Command{
		Use:   "ask QUESTION...",
		Short: "List the entities a question names, their neighbours and backlinks, and the paths between them",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ask.Question = strings.Join(args, " ")
			return graphRun(ask)
		},
	}
	askCmd.Flags().BoolVar(&ask.JSON, "json", false, "print JSON")
	askCmd.Flags().StringVar(&ask.Project, "project", ".", "a directory of the project")
	link := &GraphOptions{Out: f.Out, ProjectRoot: f.ProjectRoot, GraphLink: f.GraphLink, Action: "link"}
	linkCmd := &cobra.Command{
		Use:   "link A B --rel R",
		Short: "Record the relation A —R→ B in the long-term memory (graph/relations.md)",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			link.From, link.To = args[0], args[1]
			return graphRun(link)
		},
	}
	linkCmd.Flags().StringVar(&link.Rel, "rel", "", "the relation's name (required)")
	linkCmd.Flags().StringVar(&link.Source, "source", "", "what the relation rests on")
	linkCmd.Flags().BoolVar(&link.JSON, "json", false, "print JSON")
	linkCmd.Flags().StringVar(&link.Project, "project", ".", "a directory of the project")
	cmd.AddCommand(askCmd, linkCmd)
	return cmd
}

func graphRun(opts *GraphOptions) error {
	root, err := opts.ProjectRoot(opts.Project)
	if err != nil {
		return err
	}
	if opts.Action == "link" {
		if opts.Rel == "" {
			return usagef("memhook graph link A B --rel R", "graph link: --rel is required")
		}
		r, err := opts.GraphLink(root, opts.From, opts.To, opts.Rel, opts.Source)
		if err != nil {
			return err
		}
		return printResult(opts.Out, opts.JSON, r, func(w io.Writer) { fmt.Fprintln(w, r) })
	}
	g, err := kgraph.Load(project.Layout{Root: root}.LongDir())
	if err != nil {
		return err
	}
	c := g.Ask(opts.Question)
	return printResult(opts.Out, opts.JSON, c, c.WriteText)
}
