package cli

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/serve"
	"github.com/spf13/cobra"
)

// DefaultServeAddr is the playground's address: loopback, the seed's port.
const DefaultServeAddr = "127.0.0.1:3700"

// ServeOptions are the inputs of `memhook serve`: what it uses of the
// factory, named (use), and its flags.
type ServeOptions struct {
	Out, Err      io.Writer
	Environ       func() []string
	Executable    string
	Logs          string // the state dir's log folder
	Config        func(root string) *config.Effective
	ProjectRoot   func(dir string) (string, error)
	ServerOptions func(root, skillsDir string) serve.Options
	Addr          string
	Project       string
	SkillsDir     string
	// Background starts the server as a detached process and returns once
	// it answers (the slash command's way: it cannot wait for Ctrl-C).
	Background bool
	// Listener, when set, is used instead of listening on Addr (tests).
	Listener net.Listener
	// Limits bound slow clients and connections (zero: the defaults;
	// tests shorten them).
	Limits serve.Limits
}

// use fills what opts uses of f.
func (opts *ServeOptions) use(f *factory.Factory) {
	opts.Out, opts.Err, opts.Environ, opts.Executable, opts.Logs = f.Out, f.Err, f.Environ, f.Executable, f.Paths.Logs()
	opts.Config, opts.ProjectRoot, opts.ServerOptions = f.Config, f.ProjectRoot, f.ServerOptions
}

func newCmdServe(f *factory.Factory) *cobra.Command {
	opts := &ServeOptions{}
	opts.use(f)
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the memory playground, dashboard, memory browser and skills on 127.0.0.1:3700",
		Long: `Serve a small web application over the project's memory: the playground
(/en/settings?section=memory-test) asks memory directly and shows the raw answer
and why; the dashboard shows the org rollup; the memory browser shows the daily
distillates, the long-term wiki with backlinks, the knowledge graph and search;
the skills page shows each skill's versions. It listens on loopback; another
--addr is refused unless serve.allow_remote is set in the user's own settings
(then it warns). Ctrl-C stops it. See docs/serve.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if opts.Background {
				return serveBackground(ctx, opts)
			}
			return serveRun(ctx, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Addr, "addr", DefaultServeAddr, "host:port to listen on (a non-loopback host exposes memory to the network)")
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project")
	cmd.Flags().BoolVar(&opts.Background, "background", false, "start the server detached, print its address and return (stop it with kill PID)")
	cmd.Flags().StringVar(&opts.SkillsDir, "skills-dir", "", "the skills folder (default: <project>/.claude/skills and $CLAUDE_PLUGIN_ROOT/skills)")
	return cmd
}

// newServer is the web application for the project of --project, wired
// to memory by the factory, listening as the flags say.
func newServer(opts *ServeOptions) (*serve.Server, error) {
	root, err := opts.ProjectRoot(opts.Project)
	if err != nil {
		return nil, err
	}
	so := opts.ServerOptions(root, opts.SkillsDir)
	so.Addr, so.Limits = opts.Addr, opts.Limits
	return serve.New(so)
}

// checkServeAddr validates --addr: host:port, and on loopback unless the
// user's own settings allow the network (serve.CheckRemote).
func checkServeAddr(opts *ServeOptions) error {
	if _, _, err := net.SplitHostPort(opts.Addr); err != nil {
		return usagef("for example --addr "+DefaultServeAddr, "serve: --addr %q: want host:port", opts.Addr)
	}
	eff := opts.Config("")
	return serve.CheckRemote(opts.Addr, eff.Serve.AllowRemote, eff.UserFile)
}

func serveRun(ctx context.Context, opts *ServeOptions) error {
	ln := opts.Listener
	if ln == nil {
		if err := checkServeAddr(opts); err != nil {
			return err
		}
		var err error
		if ln, opts.Addr, err = serve.Listen(opts.Addr); err != nil {
			return err
		}
		if !serve.IsLoopback(opts.Addr) {
			fmt.Fprintf(opts.Err, "memhook: warning: serving on %s: anyone who can reach this address can read and change this project's memory\n", opts.Addr)
		}
	} else {
		opts.Addr = ln.Addr().String()
	}
	srv, err := newServer(opts)
	if err != nil {
		ln.Close()
		return err
	}
	fmt.Fprintf(opts.Out, "memhook serve: serving %s (%s) at http://%s/en/settings?section=memory-test (Ctrl-C stops)\n", filepath.Base(srv.Root()), srv.Root(), opts.Addr)
	return srv.Serve(ctx, ln)
}

// ServeWith runs `memhook serve` with opts until ctx ends; tests pass a
// listener on a free port.
func ServeWith(ctx context.Context, sys factory.System, opts ServeOptions) error {
	opts.use(factory.New(sys))
	return serveRun(ctx, &opts)
}

// serveBackground starts `memhook serve` detached, its output in the
// state dir's logs/serve.log, and waits until it answers
// (serve.StartBackground).
func serveBackground(ctx context.Context, opts *ServeOptions) error {
	if err := checkServeAddr(opts); err != nil {
		return err
	}
	root, err := opts.ProjectRoot(opts.Project)
	if err != nil {
		return err
	}
	return serve.StartBackground(ctx, serve.Background{Addr: opts.Addr, Root: root, SkillsDir: opts.SkillsDir,
		Executable: opts.Executable, Environ: opts.Environ(), LogDir: opts.Logs}, opts.Out)
}
