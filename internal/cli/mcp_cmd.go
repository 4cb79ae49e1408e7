package cli

import (
	"context"
	"io"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/mcp"
	"github.com/spf13/cobra"
)

// MCPOptions are the inputs of `memhook mcp`: what it uses of the
// factory, named, and its flag.
type MCPOptions struct {
	In         io.Reader
	Out        io.Writer
	MCPOptions func(dir string, d mcp.Deadlines) (mcp.Options, string, error)
	Project    string
	// Deadlines and MaxRequestBytes override the server's defaults (tests).
	Deadlines       mcp.Deadlines
	MaxRequestBytes int
}

// mcpOptions are what `memhook mcp` uses of f.
func mcpOptions(f *factory.Factory) *MCPOptions {
	return &MCPOptions{In: f.In, Out: f.Out, MCPOptions: f.MCPOptions}
}

func newCmdMCP(f *factory.Factory) *cobra.Command {
	opts := mcpOptions(f)
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

// mcpRun serves until stdin ends; the factory keeps what the composition
// prints off stdout (factory.MCPOptions).
func mcpRun(ctx context.Context, opts *MCPOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	mo, root, err := opts.MCPOptions(opts.Project, opts.Deadlines)
	if err != nil {
		return err
	}
	mo.Version, mo.MaxRequestBytes = Version, opts.MaxRequestBytes
	srv := mcp.New(mo)
	mo.Log(mcp.Note{Level: "info", Message: "server started for " + root})
	err = srv.Serve(ctx, opts.In, opts.Out)
	mo.Log(mcp.Note{Level: "info", Message: "server stopped"})
	return err
}
