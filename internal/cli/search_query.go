package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/spf13/cobra"
)

// SearchOptions are the inputs of `memhook search`.
type SearchOptions struct {
	Out, Err   io.Writer
	Now        func() time.Time
	OpenMemory func(projectDir, rootDir, scope string) (*search.Memory, []string, error)
	Project    string
	Root       string
	Scope      string
	Limit      int
	JSON       bool
	Query      string
	Since      string
	Until      string
}

func newCmdSearch(f *factory.Factory, runF func(*SearchOptions) error) *cobra.Command {
	opts := &SearchOptions{Out: f.Out, Err: f.Err, Now: f.Now, OpenMemory: f.OpenMemory}
	cmd := &cobra.Command{
		Use:   "search QUERY",
		Short: "Search memory (BM25 with stemming, recency and diversity)",
		Long: `Search the project's and the org's Markdown memory. Each result gives the file,
its line range, a snippet and a citation path#Lstart-Lend; read more with
memhook get. An index behind the files is caught up first, within
search.update_budget_ms.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Query = strings.Join(args, " ")
			return runWith(runF, searchRun, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project")
	cmd.Flags().StringVar(&opts.Root, "root", "", "search only this folder of Markdown files")
	cmd.Flags().StringVar(&opts.Scope, "scope", string(search.DefaultScope), "which memory: project, org, all (project and org), projects (every registered project) or everything")
	cmd.Flags().IntVar(&opts.Limit, "limit", 10, "number of results")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	cmd.Flags().StringVar(&opts.Since, "since", "", "only notes dated on or after this day (YYYY-MM-DD)")
	cmd.Flags().StringVar(&opts.Until, "until", "", "only notes dated on or before this day (YYYY-MM-DD)")
	return cmd
}

// validate checks --limit and --scope before any index is opened.
func (opts *SearchOptions) validate() error {
	if err := checkMinFlag("search", "limit", opts.Limit, 1); err != nil {
		return err
	}
	if err := checkScopeFlag("search", opts.Root, opts.Scope); err != nil {
		return err
	}
	// --since and --until are flags: a wrong day is a usage error (exit
	// 2), told before any index is opened.
	if _, err := search.ParsePeriod(opts.Since, opts.Until); err != nil {
		return usageErr(fmt.Errorf("search: --%w", err), "write --since and --until as YYYY-MM-DD, e.g. --since 2026-11-30")
	}
	return nil
}

func searchRun(opts *SearchOptions) error {
	if strings.TrimSpace(opts.Query) == "" {
		return hint.Wrap(fmt.Errorf("empty query"), "give the words to search for")
	}
	if err := opts.validate(); err != nil {
		return err
	}
	m, notes, err := opts.OpenMemory(opts.Project, opts.Root, opts.Scope)
	if err != nil {
		return err
	}
	within, _ := search.ParsePeriod(opts.Since, opts.Until) // checked by validate
	resp, err := m.Query(context.Background(), opts.Query, opts.Limit, opts.Now(), within)
	if err != nil {
		return err
	}
	resp.Notes = append(append([]string(nil), notes...), resp.Notes...)
	if opts.JSON {
		return writeJSON(opts.Out, resp)
	}
	for _, n := range resp.Notes {
		fmt.Fprintf(opts.Err, "memhook: note: %s\n", n)
	}
	return resp.WriteText(opts.Out)
}
