package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/spawn"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// CheckRemote refuses an address off loopback unless the user's own
// settings allow the network (serve.allow_remote, which no project file
// can set; userFile names where to set it): the pages read and change
// memory.
func CheckRemote(addr string, allowRemote bool, userFile string) error {
	if IsLoopback(addr) || allowRemote {
		return nil
	}
	return hint.Wrap(fmt.Errorf("serve: --addr %s is not a loopback address: serving it would expose this project's memory to the network", addr),
		"use --addr 127.0.0.1:PORT, or set allow_remote = true under [serve] in "+userFile+" (or CEREBRO_SERVE_ALLOW_REMOTE=true) if you mean it")
}

// Listen listens on addr and returns the address served: the name given
// (localhost, a host name) kept, only the port taken from the listener
// (":0").
func Listen(addr string) (net.Listener, string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, "", busyError(addr, err)
	}
	if host, _, _ := net.SplitHostPort(addr); host != "" {
		_, port, _ := net.SplitHostPort(ln.Addr().String())
		return ln, net.JoinHostPort(host, port), nil
	}
	return ln, ln.Addr().String(), nil
}

// Background is a server to start detached (`memhook serve
// --background`, the slash command's way: it cannot wait for Ctrl-C).
type Background struct {
	Addr       string // the first address to try
	Root       string // the project the server is started for
	SkillsDir  string // --skills-dir, passed on
	Executable string // memhook
	Environ    []string
	LogDir     string // the state dir's logs: serve.log holds the server's output
}

// StartBackground starts `memhook serve` detached and waits until it
// answers, writing to out what became of it. A server that already shows
// this project is reused; one that shows another project (started in
// another project, which cannot reach this one) is left alone and the
// next port is tried.
func StartBackground(ctx context.Context, b Background, out io.Writer) error {
	id, name := project.ID(b.Root), filepath.Base(b.Root)
	place := FindPlace(ctx, b.Addr, id)
	if place.Running {
		fmt.Fprintf(out, "memhook serve: already serving %s (%s) at %s\n", name, b.Root, PlaygroundURL(place.Addr, id, place.Start))
		return nil
	}
	addr := place.Addr
	if addr == "" {
		return hint.Wrap(fmt.Errorf("serve: no free address for %s from %s on: %s", name, b.Addr, strings.Join(place.Others, ", ")), "choose a free port with --addr 127.0.0.1:PORT")
	}
	if len(place.Others) > 0 {
		fmt.Fprintf(out, "memhook serve: %s cannot show %s: a server started in another project shows only that project and the org desk's registered ones (`memhook long on` registers this one)\n",
			strings.Join(place.Others, ", "), name)
	}
	if err := safefs.MkdirAll(b.LogDir); err != nil {
		return fmt.Errorf("serve: make the log folder: %w", err)
	}
	logPath := filepath.Join(b.LogDir, "serve.log")
	logf, err := safefs.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("serve: open %s: %w", logPath, err)
	}
	defer logf.Close()
	args := []string{"serve", "--addr", addr, "--project", b.Root}
	if b.SkillsDir != "" {
		args = append(args, "--skills-dir", b.SkillsDir)
	}
	cmd := exec.Command(b.Executable, args...)
	cmd.Env, cmd.Stdout, cmd.Stderr, cmd.Dir = b.Environ, logf, logf, b.Root
	spawn.Detach(cmd)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("serve: start %s: %w", b.Executable, err)
	}
	pid := cmd.Process.Pid
	if err := WaitAnswering(ctx, cmd, addr); err != nil {
		return hint.Wrap(fmt.Errorf("serve: %w", err), "see "+logPath)
	}
	fmt.Fprintf(out, "memhook serve: serving %s (%s) at %s (process %d; stop it with `kill %d`; log %s)\n", name, b.Root, PlaygroundURL(addr, id, true), pid, pid, logPath)
	return nil
}

// busyError says why addr could not be listened on; for a port in use, it
// names the port and what holds it: a memhook server (open it, or stop
// it) or another program (take another port).
func busyError(addr string, err error) error {
	host, port, _ := net.SplitHostPort(addr)
	// Windows says it in words of its own (WSAEADDRINUSE).
	if !errors.Is(err, syscall.EADDRINUSE) && !strings.Contains(err.Error(), "address already in use") && !strings.Contains(err.Error(), "Only one usage of each socket address") {
		return hint.Wrap(fmt.Errorf("serve: listen on %s: %w", addr, err), "choose another port with --addr 127.0.0.1:PORT")
	}
	next := "PORT"
	if n, err := strconv.Atoi(port); err == nil && n > 0 && n < 65535 {
		next = strconv.Itoa(n + 1)
	}
	other := "or serve on another port: --addr " + net.JoinHostPort(host, next)
	list, up := projectsAt(context.Background(), addr)
	if up && len(list) > 0 {
		names := make([]string, len(list))
		for i, p := range list {
			names[i] = p.Name
		}
		return hint.Wrap(fmt.Errorf("serve: port %s on %s is taken by a memhook server already running (it shows %s)", port, host, strings.Join(names, ", ")),
			"open http://"+addr+"/ — it is the server you want when it shows this project; else stop it (kill its memhook serve), "+other)
	}
	return hint.Wrap(fmt.Errorf("serve: port %s on %s is taken by another program", port, host), "stop that program, "+other)
}
