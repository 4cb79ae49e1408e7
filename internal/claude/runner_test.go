//go:build unix

package claude

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// standIn writes an executable script named claude into a temp dir.
func standIn(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "claude")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRunSendsPromptOnStdinNotArgv(t *testing.T) {
	dir := t.TempDir()
	bin := standIn(t, `printf '%s\n' "$@" > "`+dir+`/argv"; env > "`+dir+`/env"; cat > "`+dir+`/stdin"; echo answer`)
	r := Runner{Command: bin, Env: []string{"PATH=/usr/bin:/bin", "CLAUDECODE=1", "KEEP=yes"}}
	secret := "the prompt with a password hunter2"
	res, err := r.Run(context.Background(), Call{Prompt: secret, Model: "haiku", AllowedTools: "Read"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(res.Output) != "answer" {
		t.Fatalf("output %q", res.Output)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if got := read("stdin"); got != secret {
		t.Errorf("stdin = %q, want the prompt", got)
	}
	argv := read("argv")
	if strings.Contains(argv, "hunter2") {
		t.Errorf("prompt leaked into argv: %q", argv)
	}
	for _, want := range []string{"-p\n", "--model\nhaiku\n", "--allowedTools\nRead\n"} {
		if !strings.Contains(argv, want) {
			t.Errorf("argv %q lacks %q", argv, want)
		}
	}
	env := read("env")
	if strings.Contains(env, "CLAUDECODE=") || !strings.Contains(env, NestedEnv+"=1") || !strings.Contains(env, "KEEP=yes") {
		t.Errorf("child env wrong:\n%s", env)
	}
}

func TestRunKillsGroupThatIgnoresTerm(t *testing.T) {
	dir := t.TempDir()
	pidFile, natural := filepath.Join(dir, "sleeper.pid"), filepath.Join(dir, "natural")
	// The child ignores TERM and leaves a sleeper of its own holding
	// stdout; the sleeper marks its natural end, which only a Run that
	// waited for it (instead of killing the group) would let it reach.
	bin := standIn(t, `trap '' TERM; (sleep 300; echo done > "`+natural+`") & echo $! > "`+pidFile+`"; wait`)
	r := Runner{Command: bin, Timeout: 500 * time.Millisecond, Env: []string{"PATH=/usr/bin:/bin"}}
	_, err := r.Run(context.Background(), Call{Prompt: "x"})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if _, err := os.Stat(natural); err == nil {
		t.Fatal("Run returned only after the sleeper's natural end: it waited instead of killing the group")
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	for _, c := range strings.TrimSpace(string(b)) {
		pid = pid*10 + int(c-'0')
	}
	// The sleeper belonged to the killed group: it goes once the kernel
	// reaps it, long before its own end (the deadline guards a hang only).
	deadline := time.Now().Add(time.Minute)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("sleeper %d outlived the call", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := os.Stat(natural); err == nil {
		t.Fatal("the sleeper ended on its own: the group was not killed")
	}
}

func TestRunReportsExitAndCapsOutput(t *testing.T) {
	bin := standIn(t, `echo "bad flag" >&2; exit 3`)
	_, err := Runner{Command: bin}.Run(context.Background(), Call{Prompt: "x"})
	if err == nil || !strings.Contains(err.Error(), "bad flag") {
		t.Fatalf("err = %v, want the stderr line", err)
	}
	big := standIn(t, `head -c 5000 /dev/zero | tr '\0' a`)
	res, err := Runner{Command: big, MaxOutput: 100}.Run(context.Background(), Call{Prompt: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Truncated || len(res.Output) != 100 {
		t.Fatalf("truncated=%v len=%d, want true 100", res.Truncated, len(res.Output))
	}
}

func TestNested(t *testing.T) {
	if Nested([]string{"A=1"}) || Nested([]string{NestedEnv + "="}) {
		t.Fatal("not nested")
	}
	if !Nested(ChildEnv(nil)) {
		t.Fatal("a child env is nested")
	}
}
