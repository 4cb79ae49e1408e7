package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/org/orgvault"
	"github.com/spf13/cobra"
)

// OrgQueryOptions are the inputs of `memhook org query`.
type OrgQueryOptions struct {
	Out, Err        io.Writer
	OpenOrCreateOrg func() (*orgvault.Vault, error)
	OrgQuery        func(v *orgvault.Vault, question string, limit int, links bool) (*orgvault.Answer, error)
	Question        string
	Limit           int
	NoLinks         bool
	JSON            bool
}

func newCmdOrgQuery(f *factory.Factory, runF func(*OrgQueryOptions) error) *cobra.Command {
	opts := &OrgQueryOptions{Out: f.Out, Err: f.Err, OpenOrCreateOrg: f.OpenOrCreateOrg, OrgQuery: f.OrgQuery}
	cmd := &cobra.Command{
		Use:   "query QUESTION",
		Short: "Answer from the org vault: search it, then follow the found pages' links",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Question = strings.TrimSpace(strings.Join(args, " "))
			if opts.Question == "" {
				return usagef(orgQueryExample(f.Getenv), "org query: no question")
			}
			return runWith(runF, orgQueryRun, opts)
		},
	}
	cmd.Flags().IntVar(&opts.Limit, "limit", 8, "most pages to return")
	cmd.Flags().BoolVar(&opts.NoLinks, "no-links", false, "only the pages the search finds, none reached along their links")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

// orgQueryExample is the hint for an empty question: an example in the
// language of the session's locale (LC_ALL, else LC_MESSAGES, else LANG),
// English unless that is Russian — there is no question yet whose
// language it could follow.
func orgQueryExample(getenv func(string) string) string {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(k); v != "" {
			if strings.HasPrefix(strings.ToLower(v), "ru") {
				return "e.g. `memhook org query как мы проводим ретро`"
			}
			break
		}
	}
	return "e.g. `memhook org query how do we run a retro`"
}

// validate checks the flags before the vault is created on first use.
func (opts *OrgQueryOptions) validate() error {
	return checkMinFlag("org query", "limit", opts.Limit, 1)
}

func orgQueryRun(opts *OrgQueryOptions) error {
	if err := opts.validate(); err != nil {
		return err
	}
	v, err := opts.OpenOrCreateOrg()
	if err != nil {
		return err
	}
	ans, err := opts.OrgQuery(v, opts.Question, opts.Limit, !opts.NoLinks)
	if err != nil {
		return fmt.Errorf("org query: %w", err)
	}
	if !opts.JSON {
		for _, n := range ans.Notes {
			fmt.Fprintf(opts.Err, "memhook: note: %s\n", n)
		}
	}
	return printResult(opts.Out, opts.JSON, ans, func(w io.Writer) { ans.WriteText(w, v.Root) })
}
