package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/cerebro-mem/cerebro/internal/org/orgvault"
	"github.com/spf13/cobra"
)

func newCmdOrg(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "org",
		Short: "Manage the org knowledge vault: init, ingest, query, lint, rm",
		Long: `The org knowledge vault at $CEREBRO_HOME is the organisation's shareable wiki:
cases, regulations, approaches, tools, work types, maps and sources, curated
by a person. Every change is a git commit; org.remote shares it (org sync).`,
	}
	cmd.AddCommand(
		newCmdOrgInit(f),
		newCmdOrgIngest(f),
		newCmdOrgQuery(f),
		newCmdOrgLint(f),
		newCmdOrgRm(f),
		newCmdOrgSync(f),
	)
	return cmd
}

// OrgInitOptions are the inputs of `memhook org init`.
type OrgInitOptions struct {
	*Factory
	JSON bool
}

func newCmdOrgInit(f *Factory) *cobra.Command {
	opts := &OrgInitOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Create the org vault's skeleton (idempotent; never overwrites)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
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
	fmt.Fprintln(opts.Out, "Share it with your team: set org.remote in your settings and run `memhook org sync`.")
	return nil
}

// openOrg opens the vault for a command that only changes what is in it
// (org rm): a vault that is not there is an error with the hint to create
// it.
func openOrg(f *Factory) (*orgvault.Vault, error) {
	return f.withLimits(orgvault.Open(f.Paths.Home))
}

// openOrCreateOrg opens the vault, creating it on first use: ingest, query,
// lint and rollup are how people meet the vault, and failing them with "run
// org init first" only sends them to type a command that asks nothing.
// The creation is announced on stderr, so a --json stdout stays one object.
func openOrCreateOrg(f *Factory) (*orgvault.Vault, error) {
	v, err := f.withLimits(orgvault.Open(f.Paths.Home))
	var missing *orgvault.NotInitializedError
	if !errors.As(err, &missing) {
		return v, err
	}
	if err := ensureOrgVault(f); err != nil {
		return nil, err
	}
	return f.withLimits(orgvault.Open(f.Paths.Home))
}

// ensureOrgVault lays out the vault when it is missing and says so.
func ensureOrgVault(f *Factory) error {
	if _, err := orgvault.Open(f.Paths.Home); err == nil {
		return nil
	}
	res, err := orgvault.Init(f.Paths.Home, f.Now())
	if err != nil {
		return withHint(fmt.Errorf("create the org vault on first use: %w", err), "check that "+f.Paths.Home+" (CEREBRO_HOME) is writable, then run `memhook org init`")
	}
	if len(res.Created) > 0 {
		fmt.Fprintf(f.Err, "memhook: created the org vault at %s on first use (%d files, commit %s; `memhook org init` does the same)\n", res.Root, len(res.Created), short(res.Commit))
	}
	return nil
}

// indentJSON prints v indented, with HTML characters escaped as
// encoding/json does by default.
func indentJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeJSON prints v indented, its text as it is.
func writeJSON(w io.Writer, v any) error {
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
