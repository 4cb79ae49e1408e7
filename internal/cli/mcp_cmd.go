package cli

import (
	"context"
	"time"

	"github.com/cerebro-mem/cerebro/internal/mcp"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/spf13/cobra"
)

// MCPOptions are the inputs of `memhook mcp`.
type MCPOptions struct {
	*Factory
	Project string
	// Deadlines and MaxRequestBytes override the server's defaults (tests).
	Deadlines       mcp.Deadlines
	MaxRequestBytes int
}

func newCmdMCP(f *Factory) *cobra.Command {
	opts := &MCPOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve memory to Claude Code as MCP tools over stdio (memory_search, memory_get, recall, remember)",
		Long: `Serve the project's memory as MCP tools on stdin/stdout, for the Claude Code
session that starts it from the plugin's .mcp.json: memory_search and
memory_get (as memhook search and memhook get), recall and remember (the
black box's request object, as memhook recall/remember --request -). It
ends when stdin closes and keeps nothing between sessions. Stdout carries
protocol messages only; the log is the state dir's hooks.log.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return mcpRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", "", "a directory of the project (default: $CLAUDE_PROJECT_DIR, else the current directory)")
	return cmd
}

// mcpRun serves until stdin ends. Nothing but the protocol may reach
// stdout, so whatever the composition would print (a warning of a run
// record, a shadow run's failure) goes to the log instead.
func mcpRun(ctx context.Context, opts *MCPOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	out := opts.Out
	logf := mcp.RunLog(opts.Paths.Logs(), opts.Now)
	f := *opts.Factory
	f.Out, f.Err = mcp.LineWriter(logf), mcp.LineWriter(logf)
	dir := opts.Project
	if dir == "" {
		dir = f.Getenv("CLAUDE_PROJECT_DIR")
	}
	root, err := f.projectRoot(dir)
	if err != nil {
		return err
	}
	d := opts.Deadlines
	if d.Extreme == 0 {
		// extreme's research budget, and time to relearn what it found
		d.Extreme = time.Duration(f.Config(root).Recall.ExtremeSeconds)*time.Second + time.Minute
	}
	srv := mcp.New(mcp.Options{
		Backend: &mcpBackend{f: &f, root: root}, Version: Version,
		Deadlines: d, MaxRequestBytes: opts.MaxRequestBytes, Log: logf,
	})
	logf(mcp.Note{Level: "info", Message: "server started for " + root})
	err = srv.Serve(ctx, opts.In, out)
	logf(mcp.Note{Level: "info", Message: "server stopped"})
	return err
}

// mcpBackend is the project's memory behind the tools: the commands'
// own composition, built afresh for each call so that a settings edit
// applies to the next call and nothing is kept between calls.
type mcpBackend struct {
	f    *Factory
	root string
}

func (b *mcpBackend) fresh() *Factory {
	f := *b.f
	f.configs = nil
	return &f
}

// Memory implements mcp.Backend.
func (b *mcpBackend) Memory(scope search.Scope) (*search.Memory, error) {
	s, err := b.fresh().memoryRoots(b.root, "", string(scope))
	if err != nil {
		return nil, err
	}
	return s.memory, nil
}

// Recall implements mcp.Backend.
func (b *mcpBackend) Recall(ctx context.Context, raw blackbox.Raw) (any, error) {
	return b.fresh().recallObject(ctx, time.Now(), b.root, raw)
}

// Remember implements mcp.Backend.
func (b *mcpBackend) Remember(ctx context.Context, raw blackbox.Raw) (any, error) {
	return b.fresh().rememberObject(ctx, time.Now(), b.root, raw)
}

// Now implements mcp.Backend.
func (b *mcpBackend) Now() time.Time { return b.f.Now() }
