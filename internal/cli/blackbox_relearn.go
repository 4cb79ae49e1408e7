package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/spf13/cobra"
)

// RelearnOptions are the inputs of `memhook relearn`.
type RelearnOptions struct {
	Out            io.Writer
	Config         func(root string) *config.Effective
	KeepSecretsOut func(dir, name string, data []byte) ([]byte, error)
	Relearn        func(ctx context.Context, dir string, raw blackbox.Raw, req blackbox.RelearnRequest) (any, error)
	Artifact       string
	Summary        string
	About          string
	Project        string
}

func newCmdRelearn(f *factory.Factory, runF func(*RelearnOptions) error) *cobra.Command {
	opts := &RelearnOptions{Out: f.Out, Config: f.Config, KeepSecretsOut: f.KeepSecretsOut, Relearn: f.Relearn}
	cmd := &cobra.Command{
		Use:   "relearn --artifact FILE --summary TEXT --about ENTITY",
		Short: "Put an expensive result back so the same question costs level 2–3 next time",
		Long: `Run the relearn cycle: the artifact goes into the object store (its id is
the SHA-256 of its bytes), the summary is written as a wiki page that recall's
text search finds, the page is linked to the entity in the knowledge graph, and
the entity's link table (<entity>_links) gets a row when it exists. Prints every
id the cycle made.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWith(runF, relearnRun, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Artifact, "artifact", "", "the result: a document, table, image (required)")
	cmd.Flags().StringVar(&opts.Summary, "summary", "", "a short summary: what came out and where the detail is (required)")
	cmd.Flags().StringVar(&opts.About, "about", "", "the entity the result is about (required)")
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project")
	return cmd
}

func relearnRun(opts *RelearnOptions) error {
	if opts.Artifact == "" || opts.Summary == "" || opts.About == "" {
		return printObject(opts.Out, nil, usagef("memhook relearn --artifact FILE --summary TEXT --about ENTITY", "relearn: --artifact, --summary and --about are all required"))
	}
	limit := opts.Config("").Limits.IngestBytes
	// A file argument: a regular file, bounded, never a key or a link
	// (relearn --artifact /dev/zero once read 1.3 GB).
	data, err := safefs.ReadArgument(opts.Artifact, limit)
	if err != nil {
		return printObject(opts.Out, nil, fmt.Errorf("relearn: read artifact: %w", err))
	}
	// The artifact and the summary go into memory: the secret guard first.
	if data, err = opts.KeepSecretsOut(opts.Project, opts.Artifact, data); err != nil {
		return printObject(opts.Out, nil, fmt.Errorf("relearn: %w", err))
	}
	summary, err := opts.KeepSecretsOut(opts.Project, "--summary", []byte(opts.Summary))
	if err != nil {
		return printObject(opts.Out, nil, fmt.Errorf("relearn: %w", err))
	}
	raw := blackbox.Raw{"text": jsonString(opts.About + ": " + string(summary))}
	req := blackbox.RelearnRequest{Artifact: data, ArtifactName: opts.Artifact, Summary: string(summary), About: opts.About}
	out, err := opts.Relearn(context.Background(), opts.Project, raw, req)
	return printPartial(opts.Out, out, err)
}

func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}
