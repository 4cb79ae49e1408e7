package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/org/orgvault"
	"github.com/spf13/cobra"
)

func newCmdOrg(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "org",
		Short: "Manage the org knowledge vault: init, ingest, query, lint, rm",
		Long: `The org knowledge vault at $CEREBRO_HOME is the organisation's shareable wiki:
cases, regulations, approaches, tools, work types, maps and sources, curated
by a person. Every change is a git commit; org.remote shares it (org sync).`,
	}
	cmd.AddCommand(
		newCmdOrgInit(f, nil),
		newCmdOrgIngest(f, nil),
		newCmdOrgQuery(f, nil),
		newCmdOrgLint(f, nil),
		newCmdOrgRm(f, nil),
		newCmdOrgSync(f, nil),
	)
	return cmd
}

// OrgInitOptions are the inputs of `memhook org init`.
type OrgInitOptions struct {
	Out  io.Writer
	Now  func() time.Time
	Desk string
	JSON bool
}

func newCmdOrgInit(f *factory.Factory, runF func(*OrgInitOptions) error) *cobra.Command {
	opts := &OrgInitOptions{Out: f.Out, Now: f.Now, Desk: f.Paths.Home}
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Create the org vault's skeleton (idempotent; never overwrites)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWith(runF, orgInitRun, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

func orgInitRun(opts *OrgInitOptions) error {
	res, err := orgvault.Init(opts.Desk, opts.Now())
	if err != nil {
		return fmt.Errorf("org init: %w", err)
	}
	return printResult(opts.Out, opts.JSON, res, res.WriteText)
}
