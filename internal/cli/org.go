package cli

import (
	"encoding/json"
	"fmt"

	"github.com/cerebro-mem/cerebro/internal/orgvault"
	"github.com/spf13/cobra"
)

func newCmdOrg(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "org",
		Short: "The org knowledge vault: init, ingest, query, lint, rm",
		Long: `The org knowledge vault at $CEREBRO_HOME is the organisation's shareable wiki:
cases, regulations, approaches, tools, work types, maps and sources, curated
by a person. Every change is a git commit; share it by adding a remote.`,
	}
	cmd.AddCommand(
		newCmdOrgInit(f, nil),
		newCmdOrgIngest(f, nil),
		newCmdOrgQuery(f, nil),
		newCmdOrgLint(f, nil),
		newCmdOrgRm(f, nil),
	)
	return cmd
}

// OrgInitOptions are the inputs of `memhook org init`.
type OrgInitOptions struct {
	*Factory
	JSON bool
}

func newCmdOrgInit(f *Factory, runF func(*OrgInitOptions) error) *cobra.Command {
	opts := &OrgInitOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Create the org vault's skeleton (idempotent; never overwrites)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return orgInitRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

func orgInitRun(opts *OrgInitOptions) error {
	res, err := orgvault.Init(opts.Paths.Home, opts.Now())
	if err != nil {
		return fmt.Errorf("org init: %w", err)
	}
	if opts.JSON {
		return writeJSON(opts.Out, res)
	}
	if len(res.Created) == 0 {
		fmt.Fprintf(opts.Out, "org vault at %s is already laid out; nothing changed.\n", res.Root)
		return nil
	}
	fmt.Fprintf(opts.Out, "org vault at %s: created %d files (commit %s)\n", res.Root, len(res.Created), short(res.Commit))
	for _, c := range res.Created {
		fmt.Fprintf(opts.Out, "  %s\n", c)
	}
	fmt.Fprintln(opts.Out, "Share it with your team: add a git remote in that folder and push with your git.")
	return nil
}

// openOrg opens the vault, with the hint to create it when absent.
func openOrg(f *Factory) (*orgvault.Vault, error) {
	v, err := orgvault.Open(f.Paths.Home)
	if err != nil {
		return nil, err
	}
	return v, nil
}

func writeJSON(w interface{ Write([]byte) (int, error) }, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func short(hash string) string {
	if len(hash) > 8 {
		return hash[:8]
	}
	if hash == "" {
		return "none"
	}
	return hash
}
