package cli

import (
	"fmt"
	"io"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/lint"
	"github.com/cerebro-mem/cerebro/internal/org/orgvault"
	"github.com/spf13/cobra"
)

// OrgLintOptions are the inputs of `memhook org lint`.
type OrgLintOptions struct {
	Out             io.Writer
	Config          func(root string) *config.Effective
	OpenOrCreateOrg func() (*orgvault.Vault, error)
	JSON            bool
}

func newCmdOrgLint(f *factory.Factory, runF func(*OrgLintOptions) error) *cobra.Command {
	opts := &OrgLintOptions{Out: f.Out, Config: f.Config, OpenOrCreateOrg: f.OpenOrCreateOrg}
	cmd := &cobra.Command{
		Use:   "lint",
		Short: "Check the org vault against SCHEMA.md, and for secrets and personal data",
		Long: `Lint checks links, frontmatter, types, statuses, the ## Связи section, orphans,
index.md and hub drift, raw/ files without a source page, links into .trash/,
large files outside raw/_large/, deprecated pages linked as current, and
secrets or personal data. It exits 1 when it finds errors.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWith(runF, orgLintRun, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, `print [{"file","line","rule","message","severity"}]`)
	return cmd
}

func orgLintRun(opts *OrgLintOptions) error {
	v, err := opts.OpenOrCreateOrg()
	if err != nil {
		return err
	}
	eff := opts.Config("")
	issues, err := v.Lint(eff.Org.RawLargeBytes)
	if err != nil {
		return fmt.Errorf("org lint: %w", err)
	}
	if opts.JSON {
		if issues == nil {
			issues = []lint.Finding{}
		}
	}
	return exitIf(printResult(opts.Out, opts.JSON, issues, func(w io.Writer) { lint.WriteByFile(w, issues, v.Root) }), lint.HasErrors(issues))
}
