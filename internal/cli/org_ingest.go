package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/org/orgvault"
	"github.com/spf13/cobra"
)

// OrgIngestOptions are the inputs of `memhook org ingest`.
type OrgIngestOptions struct {
	Out             io.Writer
	Now             func() time.Time
	Config          func(root string) *config.Effective
	OpenOrCreateOrg func() (*orgvault.Vault, error)
	CaseProject     func(arg string) (root, name string, err error)
	File            string
	Case            string // a project path or registry id
	Redact          bool
	JSON            bool
}

func newCmdOrgIngest(f *factory.Factory, runF func(*OrgIngestOptions) error) *cobra.Command {
	opts := &OrgIngestOptions{Out: f.Out, Now: f.Now, Config: f.Config, OpenOrCreateOrg: f.OpenOrCreateOrg, CaseProject: f.CaseProject}
	cmd := &cobra.Command{
		Use:   "ingest [FILE | --case PROJECT]",
		Short: "Add a file (into raw/, with a source draft) or a project's case (a case draft)",
		Long: `Ingest adds a file to raw/ (raw/_large/ above org.raw_large_bytes) with a draft
source page, or, with --case, drafts a case page from a project's long-term
memory (a path or a registry id). Content with secrets or personal data is
refused with the place and kind of each finding, unless --redact replaces
them with [REDACTED:kind] markers. The change is logged and committed.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.File = args[0]
			}
			if (opts.File == "") == (opts.Case == "") {
				return usagef("e.g. `memhook org ingest notes.md` or `memhook org ingest --case ~/src/app`", "org ingest: name one FILE or one --case PROJECT")
			}
			return runWith(runF, orgIngestRun, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Case, "case", "", "draft a case from this project's long-term memory (path or registry id)")
	cmd.Flags().BoolVar(&opts.Redact, "redact", false, "replace secrets and personal data with markers instead of refusing")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

func orgIngestRun(opts *OrgIngestOptions) error {
	v, err := opts.OpenOrCreateOrg()
	if err != nil {
		return err
	}
	eff := opts.Config("")
	in := orgvault.IngestOptions{Redact: opts.Redact, LargeBytes: eff.Org.RawLargeBytes, MaxBytes: eff.Limits.IngestBytes, Now: opts.Now()}
	var res *orgvault.IngestResult
	if opts.File != "" {
		res, err = v.IngestFile(opts.File, in)
	} else {
		root, name, rerr := opts.CaseProject(opts.Case)
		if rerr != nil {
			return rerr
		}
		res, err = v.IngestCase(root, name, in)
	}
	if err != nil {
		return fmt.Errorf("org ingest: %w", err)
	}
	return printResult(opts.Out, opts.JSON, res, func(w io.Writer) { res.WriteText(w, v.Root) })
}
