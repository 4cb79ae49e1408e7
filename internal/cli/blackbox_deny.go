package cli

import (
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/text/private"
	"github.com/spf13/cobra"
	"io"
	"time"
)

// DenyOptions are the inputs of `memhook deny`.
type DenyOptions struct {
	Out            io.Writer
	Now            func() time.Time
	OpenBox        func(dir string) (*blackbox.Box, func(), error)
	KeepSecretsOut func(dir, name string, data []byte) ([]byte, error)
	ID             string
	Reason         string
	Project        string
}

func newCmdDeny(f *factory.Factory, runF func(*DenyOptions) error) *cobra.Command {
	opts := &DenyOptions{Out: f.Out, Now: f.Now, OpenBox: f.OpenBox, KeepSecretsOut: f.KeepSecretsOut}
	cmd := &cobra.Command{
		Use:   "deny ID --reason TEXT",
		Short: "Reject an inference recall offered; it is stored and not offered again, its facts stay",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			return runWith(runF, denyRun, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Reason, "reason", "", "why the conclusion is wrong (required)")
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project")
	return cmd
}

func denyRun(opts *DenyOptions) error {
	box, done, err := opts.OpenBox(opts.Project)
	if err != nil {
		return printObject(opts.Out, nil, err)
	}
	defer done()
	// The reason is kept in memory: guarded like any text that enters it.
	reason, err := opts.KeepSecretsOut(opts.Project, "--reason", []byte(private.Strip(opts.Reason)))
	if err != nil {
		return printObject(opts.Out, nil, err)
	}
	opts.Reason = string(reason)
	d, err := box.Deny(opts.ID, opts.Reason, opts.Now())
	return printObject(opts.Out, d, err)
}
