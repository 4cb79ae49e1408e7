//go:build unix

package claude

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
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
	r := Runner{Command: bin, Env: []string{"PATH=/usr/bin:/bin", "CLAUDECODE=1", "KEEP=yes"}, Guard: Unguarded}
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
	r := Runner{Command: bin, Timeout: 500 * time.Millisecond, Env: []string{"PATH=/usr/bin:/bin"}, Guard: Unguarded}
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
	_, err := Runner{Command: bin, Guard: Unguarded}.Run(context.Background(), Call{Prompt: "x"})
	if err == nil || !strings.Contains(err.Error(), "bad flag") {
		t.Fatalf("err = %v, want the stderr line", err)
	}
	big := standIn(t, `head -c 5000 /dev/zero | tr '\0' a`)
	res, err := Runner{Command: big, MaxOutput: 100, Guard: Unguarded}.Run(context.Background(), Call{Prompt: "x"})
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

// The prompt passes the runner's guard before it is written to stdin, and
// a runner without a guard refuses to start anything.
func TestRunAppliesTheGuardAndRefusesWithoutOne(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	bin := standIn(t, `touch "`+marker+`"; cat > "`+dir+`/stdin"; echo answer`)
	r := Runner{Command: bin, Env: []string{"PATH=/usr/bin:/bin"}, Guard: func(p string) string { return strings.ReplaceAll(p, "hunter2", "[REDACTED]") }}
	if _, err := r.Run(context.Background(), Call{Prompt: "the password is hunter2"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "stdin")); string(got) != "the password is [REDACTED]" {
		t.Fatalf("stdin = %q, want the guarded prompt", got)
	}
	os.Remove(marker)
	r.Guard = nil
	if _, err := r.Run(context.Background(), Call{Prompt: "x"}); !errors.Is(err, ErrNoGuard) {
		t.Fatalf("err = %v, want ErrNoGuard", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a runner without a guard started the program")
	}
}

// alive reports whether pid is a live process (a zombie counts as gone).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return true // not Linux: the signal check is all there is
	}
	i := strings.LastIndexByte(string(data), ')')
	return i < 0 || !strings.HasPrefix(strings.TrimSpace(string(data[i+1:])), "Z")
}

func readPids(t *testing.T, dir string) []int {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.pid"))
	var pids []int
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, w := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(w); err == nil {
				pids = append(pids, n)
			}
		}
	}
	return pids
}

// A claude that daemonizes children — in a new session (setsid), detached
// by a double fork, with its environment cleared — leaves nothing running
// once the call ends, whether it answered or ran into the deadline.
func TestRunLeavesNoDescendantBehind(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the sweep of new sessions is Linux's; elsewhere only the group is killed")
	}
	for _, c := range []struct {
		name, tail string
		timeout    time.Duration
	}{
		{"answered", "echo answer", 10 * time.Second},
		{"deadline", "sleep 30", 700 * time.Millisecond},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			bin := standIn(t, `
setsid sleep 300 & echo $! > "`+dir+`/setsid.pid"
( setsid sh -c 'sleep 301 & echo $! > "`+dir+`/double.pid"' & )
setsid env -i /bin/sh -c 'sleep 302 & echo $! > "`+dir+`/clean.pid"; wait' &
sleep 0.2
`+c.tail)
			r := Runner{Command: bin, Timeout: c.timeout, Env: []string{"PATH=/usr/bin:/bin"}, Guard: Unguarded}
			res, err := r.Run(context.Background(), Call{Prompt: "x"})
			if c.name == "answered" && (err != nil || strings.TrimSpace(res.Output) != "answer") {
				t.Fatalf("res %q err %v", res.Output, err)
			}
			if c.name == "deadline" && !errors.Is(err, ErrTimeout) {
				t.Fatalf("err = %v, want ErrTimeout", err)
			}
			pids := readPids(t, dir)
			if len(pids) < 3 {
				t.Fatalf("the stand-in started %d daemons, want 3 (%v)", len(pids), pids)
			}
			for _, pid := range pids {
				if alive(pid) {
					syscall.Kill(pid, syscall.SIGKILL)
					t.Errorf("process %d outlived the call", pid)
				}
			}
		})
	}
}
