package cli

import (
	"io"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/longterm"

	"github.com/spf13/cobra"
)

// IngestOptions are the inputs of `memhook ingest`.
type IngestOptions struct {
	Out        io.Writer
	Now        func() time.Time
	LongChange func(dir, action string, fn func(*longterm.Store, *config.Effective) error) (*longterm.Store, error)
	File       string
	Project    string
	Redact     bool
}

func newCmdIngest(f *factory.Factory, runF func(*IngestOptions) error) *cobra.Command {
	opts := &IngestOptions{Out: f.Out, Now: f.Now, LongChange: f.LongChange}
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
			return runWith(runF, ingestRun, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory inside the project")
	cmd.Flags().BoolVar(&opts.Redact, "redact", false, "replace secrets and personal data with [REDACTED:kind] markers instead of refusing")
	return cmd
}

func ingestRun(opts *IngestOptions) error {
	var res *longterm.IngestResult
	var large int64
	s, err := opts.LongChange(opts.Project, "ingest "+filepath.Base(opts.File), func(s *longterm.Store, eff *config.Effective) (err error) {
		large = eff.Long.RawLargeBytes
		res, err = s.IngestWith(opts.File, longterm.IngestOptions{LargeBytes: large, MaxBytes: eff.Limits.IngestBytes, Redact: opts.Redact, Now: opts.Now()})
		return err
	})
	if err != nil {
		return err
	}
	res.WriteText(opts.Out, large, s.Dir)
	return nil
}
