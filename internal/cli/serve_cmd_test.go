package cli

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/serve"
)

// TestServeBackgroundFindsRunningServer: the slash command's
// `serve --background` does not start a second server where one answers.
func TestServeBackgroundFindsRunningServer(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "p")
	os.MkdirAll(filepath.Join(proj, ".git"), 0o755)
	env := map[string]string{"HOME": dir, "CEREBRO_STATE_DIR": filepath.Join(dir, "state"), "CEREBRO_HOME": filepath.Join(dir, "desk")}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var out bytes.Buffer
	go func() {
		done <- ServeWith(ctx, factory.System{Out: &out, Err: &bytes.Buffer{}, Getenv: func(k string) string { return env[k] }, Environ: func() []string { return nil }},
			ServeOptions{Project: proj, Listener: ln})
	}()
	defer func() { cancel(); <-done }()
	addr := ln.Addr().String()
	for i := 0; i < 50 && !serve.Answering(context.Background(), addr); i++ {
		time.Sleep(20 * time.Millisecond)
	}
	stdout, stderr, code := run(t, env, "", "serve", "--background", "--addr", addr, "--project", proj)
	if code != 0 || !strings.Contains(stdout, "already serving p ("+proj+") at http://"+addr+"/en/settings?section=memory-test") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestServeBackgroundInAnotherProject: a server started for project A
// answers a registered project C on request (the printed address names
// C), and for project B, which it cannot show, `serve --background`
// starts B's own server on the next port instead of printing A's.
func TestServeBackgroundInAnotherProject(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "alpha"), filepath.Join(dir, "bravo"), filepath.Join(dir, "charlie")
	env := map[string]string{"HOME": dir, "CEREBRO_STATE_DIR": filepath.Join(dir, "state"), "CEREBRO_HOME": filepath.Join(dir, "desk")}
	for _, p := range []string{a, b, c} {
		os.MkdirAll(filepath.Join(p, ".git"), 0o755)
	}
	if _, stderr, code := run(t, env, "", "long", "on", "--project", c); code != 0 {
		t.Fatalf("long on: %s", stderr)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var out bytes.Buffer
	go func() {
		done <- ServeWith(ctx, factory.System{Out: &out, Err: &bytes.Buffer{}, Getenv: func(k string) string { return env[k] }, Environ: func() []string { return nil }},
			ServeOptions{Project: a, Listener: ln})
	}()
	defer func() { cancel(); <-done }()
	addr := ln.Addr().String()
	for i := 0; i < 50 && !serve.Answering(context.Background(), addr); i++ {
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(out.String(), "serving alpha ("+a+") at http://"+addr) {
		t.Errorf("the foreground server does not name its project: %q", out.String())
	}
	bg := func(proj string) string {
		t.Helper()
		cmd := exec.Command(memhookBin, "serve", "--background", "--addr", addr, "--project", proj)
		cmd.Env = envList(env)
		got, err := cmd.Output()
		if err != nil {
			t.Fatalf("serve --background --project %s: %v\n%s", proj, err, got)
		}
		return string(got)
	}
	got := bg(c)
	if want := "already serving charlie (" + c + ") at http://" + addr + "/en/settings?section=memory-test&project=" + project.ID(c); !strings.Contains(got, want) {
		t.Errorf("for a registered project:\n%s\nwant %s", got, want)
	}
	got = bg(b)
	pid := regexp.MustCompile(`process (\d+);`).FindStringSubmatch(got)
	if pid != nil {
		n, _ := strconv.Atoi(pid[1])
		if proc, err := os.FindProcess(n); err == nil {
			defer proc.Signal(syscall.SIGTERM)
		}
	}
	_, port, _ := net.SplitHostPort(addr)
	p, _ := strconv.Atoi(port)
	next := net.JoinHostPort("127.0.0.1", strconv.Itoa(p+1))
	if !strings.Contains(got, addr+" (project alpha) cannot show bravo") || !strings.Contains(got, "serving bravo ("+b+") at http://"+next+"/en/settings?section=memory-test") || pid == nil {
		t.Fatalf("for an unregistered project:\n%s", got)
	}
	if pl := serve.FindPlace(context.Background(), next, project.ID(b)); !pl.Running || !pl.Start || pl.Addr != next {
		t.Errorf("the server at %s is not found showing bravo as its own: %+v", next, pl)
	}
}

// TestServeOnABusyPortSaysWhatHoldsIt: a foreground serve on a port in use
// names the port and what holds it — a memhook server (open it) or
// another program — and the next port to try, exiting 1.
func TestServeOnABusyPortSaysWhatHoldsIt(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "p")
	os.MkdirAll(filepath.Join(proj, ".git"), 0o755)
	env := map[string]string{"HOME": dir, "CEREBRO_STATE_DIR": filepath.Join(dir, "state"), "CEREBRO_HOME": filepath.Join(dir, "desk")}
	other, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	addr := other.Addr().String()
	_, port, _ := net.SplitHostPort(addr)
	n, _ := strconv.Atoi(port)
	_, stderr, code := run(t, env, "", "serve", "--addr", addr, "--project", proj)
	if code != 1 || !strings.Contains(stderr, "port "+port+" on 127.0.0.1 is taken by another program") ||
		!strings.Contains(stderr, "--addr 127.0.0.1:"+strconv.Itoa(n+1)) {
		t.Errorf("another program's port: exit %d\n%s", code, stderr)
	}

	addr = startServe(t, env, proj)
	_, stderr, code = run(t, env, "", "serve", "--addr", addr, "--project", proj)
	if code != 1 || !strings.Contains(stderr, "is taken by a memhook server already running (it shows p)") || !strings.Contains(stderr, "open http://"+addr+"/") {
		t.Errorf("a memhook server's port: exit %d\n%s", code, stderr)
	}
}

// startServe runs `memhook serve` for proj on a free port until the test
// ends and returns its address once it answers.
func startServe(t *testing.T, env map[string]string, proj string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- ServeWith(ctx, factory.System{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}, Getenv: func(k string) string { return env[k] }, Environ: func() []string { return nil }},
			ServeOptions{Project: proj, Listener: ln})
	}()
	t.Cleanup(func() { cancel(); <-done })
	addr := ln.Addr().String()
	for i := 0; i < 100 && !serve.Answering(context.Background(), addr); i++ {
		time.Sleep(20 * time.Millisecond)
	}
	return addr
}
