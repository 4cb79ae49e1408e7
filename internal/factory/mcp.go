package factory

import (
	"context"
	"time"

	"github.com/cerebro-mem/cerebro/internal/mcp"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/search"
)

// MCPOptions are the MCP server's options for the project around dir
// ($CLAUDE_PROJECT_DIR when dir is "", else the current directory), with
// its root: the backend, its log (the state dir's hooks.log) and the
// deadlines d, extreme recall's taken from the project's settings when d
// leaves it 0. Nothing but the protocol may reach stdout, so whatever the
// composition would print (a warning of a run record, a shadow run's
// failure) goes to the log instead. The caller sets Version and
// MaxRequestBytes.
func (f *Factory) MCPOptions(dir string, d mcp.Deadlines) (mcp.Options, string, error) {
	logf := mcp.RunLog(f.Paths.Logs(), f.Now)
	quiet := *f
	quiet.Out, quiet.Err = mcp.LineWriter(logf), mcp.LineWriter(logf)
	if dir == "" {
		dir = f.Getenv("CLAUDE_PROJECT_DIR")
	}
	root, err := quiet.ProjectRoot(dir)
	if err != nil {
		return mcp.Options{}, "", err
	}
	if d.Extreme == 0 {
		// extreme's research budget, and time to relearn what it found
		d.Extreme = time.Duration(quiet.Config(root).Recall.ExtremeSeconds)*time.Second + time.Minute
	}
	return mcp.Options{Backend: &mcpBackend{f: &quiet, root: root}, Deadlines: d, Log: logf}, root, nil
}

// mcpBackend is the memory of the project at root behind the MCP
// server's tools, opened as the commands open it; whatever the
// composition prints goes to f's writers, the server's log. It builds the
// composition afresh for each call so that a settings edit applies to the
// next call and nothing is kept between calls.
type mcpBackend struct {
	f    *Factory
	root string
}

func (b *mcpBackend) fresh() *Factory {
	f := *b.f
	f.Config = configFunc(&f)
	return &f
}

// Memory implements mcp.Backend.
func (b *mcpBackend) Memory(scope search.Scope) (*search.Memory, error) {
	m, _, err := b.fresh().OpenMemory(b.root, "", string(scope))
	return m, err
}

// Recall implements mcp.Backend.
func (b *mcpBackend) Recall(ctx context.Context, raw blackbox.Raw) (any, error) {
	return b.fresh().recallSince(ctx, time.Now(), b.root, raw)
}

// Remember implements mcp.Backend.
func (b *mcpBackend) Remember(ctx context.Context, raw blackbox.Raw) (any, error) {
	return b.fresh().rememberSince(ctx, time.Now(), b.root, raw)
}

// Now implements mcp.Backend.
func (b *mcpBackend) Now() time.Time { return b.f.Now() }
