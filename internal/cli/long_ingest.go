package cli

import (
	"fmt"
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/longterm"

	"github.com/spf13/cobra"
)

// IngestOptions are the inputs of `memhook ingest`.
type IngestOptions struct {
	*Factory
	File    string
	Project string
	Redact  bool
}

func newCmdIngest(f *Factory) *cobra.Command {
	opts := &IngestOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "ingest FILE",
		Short: "Copy a source into long-term memory's raw/ and create its source page",
		Long: `ingest copies FILE into .claude/memory_long/raw/ (raw/_large/ above
long.raw_large_bytes), creates a source page stub in wiki/sources/ linking it,
appends log.md and rebuilds index.md. It refuses symbolic links, directories,
files inside memory_long, and binary junk: text must be UTF-8 without NUL
bytes; .pdf, office, epub and image files are accepted when their first bytes
match their type. raw/ is never overwritten. A source holding secrets or
personal data (API keys, passwords, card numbers...) is refused, as by
org ingest; --redact stores it with each one replaced by [REDACTED:kind].`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.File = args[0]
			return ingestRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory inside the project")
	cmd.Flags().BoolVar(&opts.Redact, "redact", false, "replace secrets and personal data with [REDACTED:kind] markers instead of refusing")
	return cmd
}

func ingestRun(opts *IngestOptions) error {
	s, root, err := opts.longStore(opts.Project)
	if err != nil {
		return err
	}
	eff := opts.Config(root)
	var res *longterm.IngestResult
	err = opts.memoryCommit(s, root, "ingest "+filepath.Base(opts.File), func() (err error) {
		res, err = s.IngestWith(opts.File, longterm.IngestOptions{LargeBytes: eff.Long.RawLargeBytes, MaxBytes: eff.Limits.IngestBytes, Redact: opts.Redact, Now: opts.Now()})
		return err
	})
	if err != nil {
		return err
	}
	switch {
	case res.Already:
		fmt.Fprintf(opts.Out, "already ingested: %s (identical)\n", res.Raw)
	case res.Large:
		fmt.Fprintf(opts.Out, "copied to %s (%d bytes, over %d: stored in raw/_large/)\n", res.Raw, res.Bytes, eff.Long.RawLargeBytes)
	default:
		fmt.Fprintf(opts.Out, "copied to %s (%d bytes)\n", res.Raw, res.Bytes)
	}
	if res.Redacted > 0 {
		fmt.Fprintf(opts.Out, "redacted %d secret(s) or personal data in the stored copy\n", res.Redacted)
	}
	if res.PageKept {
		fmt.Fprintf(opts.Out, "source page: %s (already there, kept)\n", res.Page)
	} else {
		fmt.Fprintf(opts.Out, "source page: %s (new stub)\n", res.Page)
	}
	fmt.Fprintf(opts.Out, "long-term root: %s\n", s.Dir)
	return nil
}
