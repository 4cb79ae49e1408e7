package cli

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
		done <- ServeWith(ctx, System{Out: &out, Err: &bytes.Buffer{}, Getenv: func(k string) string { return env[k] }, Environ: func() []string { return nil }},
			ServeOptions{Project: proj, Listener: ln})
	}()
	defer func() { cancel(); <-done }()
	addr := ln.Addr().String()
	for i := 0; i < 50 && !answering(context.Background(), addr); i++ {
		time.Sleep(20 * time.Millisecond)
	}
	stdout, stderr, code := run(t, env, "", "serve", "--background", "--addr", addr, "--project", proj)
	if code != 0 || !strings.Contains(stdout, "already serving at http://"+addr+"/en/settings?section=memory-test") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestServeRefusesBusyAddress: a taken port is a clear error with a hint.
func TestServeRefusesBusyAddress(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	dir := t.TempDir()
	_, stderr, code := run(t, map[string]string{"HOME": dir, "CEREBRO_STATE_DIR": dir}, "", "serve", "--addr", ln.Addr().String(), "--project", dir)
	if code != 1 || !strings.Contains(stderr, "serve: listen on "+ln.Addr().String()) || !strings.Contains(stderr, "hint: choose another port") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}
