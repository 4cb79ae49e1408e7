package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/org/orgvault"
	"github.com/spf13/cobra"
)

// OrgRmOptions are the inputs of `memhook org rm`.
type OrgRmOptions struct {
	Out     io.Writer
	Now     func() time.Time
	OpenOrg func() (*orgvault.Vault, error)
	Page    string
	JSON    bool
}

func newCmdOrgRm(f *factory.Factory, runF func(*OrgRmOptions) error) *cobra.Command {
	opts := &OrgRmOptions{Out: f.Out, Now: f.Now, OpenOrg: f.OpenOrg}
	cmd := &cobra.Command{
		Use:     "rm PAGE",
		Aliases: []string{"trash"},
		Short:   "Move a page to .trash/ (logged and committed; nothing is deleted)",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Page = args[0]
			return runWith(runF, orgRmRun, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

func orgRmRun(opts *OrgRmOptions) error {
	v, err := opts.OpenOrg()
	if err != nil {
		return err
	}
	res, err := v.Trash(opts.Page, opts.Now())
	if err != nil {
		return hint.Wrap(fmt.Errorf("org rm: %w", err), "name the page by its path (cases/Кейс — X.md) or its name, as in a [[link]]")
	}
	return printResult(opts.Out, opts.JSON, res, res.WriteText)
}
