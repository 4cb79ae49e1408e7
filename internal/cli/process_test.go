package cli

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// memhookBin is the binary built once for the tests that run real
// processes.
var memhookBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "memhook-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	memhookBin = filepath.Join(dir, "memhook")
	if out, err := exec.Command("go", "build", "-o", memhookBin, "../../cmd/memhook").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build memhook: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// proc runs the built memhook with h's environment (and extra variables).
func (h *hookEnv) proc(t *testing.T, stdin string, extra []string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(memhookBin, args...)
	cmd.Env = append(envList(h.env), extra...)
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), code
}

func envList(m map[string]string) []string {
	out := []string{"PATH=" + os.Getenv("PATH")}
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	return out
}

// appendLine grows a transcript as Claude Code does.
func appendLine(t *testing.T, path, line string) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(line + "\n")
	f.Close()
}

func userLine(text string) string {
	return fmt.Sprintf(`{"type":"user","timestamp":"2026-11-30T09:00:00Z","uuid":"u-%s","message":{"role":"user","content":%q}}`, text, text)
}

func assistantLine(id, text string) string {
	return fmt.Sprintf(`{"type":"assistant","timestamp":"2026-11-30T09:00:01Z","message":{"id":%q,"role":"assistant","content":[{"type":"text","text":%q}]}}`, id, text)
}

// TestConcurrentSessionsLoseAndDuplicateNothing runs several sessions of one
// project at once, each a sequence of real hook processes with a growing,
// lagging transcript, while `flush --pending` runs alongside.
func TestConcurrentSessionsLoseAndDuplicateNothing(t *testing.T) {
	h := newHookEnv(t)
	h.env["CEREBRO_SHORT_FLUSH_REPLIES"] = "6"
	const sessions, turns = 4, 9
	var wg sync.WaitGroup
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
				h.proc(t, "", nil, "flush", "--pending")
				time.Sleep(20 * time.Millisecond)
			}
		}
	}()
	for s := 0; s < sessions; s++ {
		wg.Add(1)
		go func(s int) {
			defer wg.Done()
			id := fmt.Sprintf("sess%d", s)
			tr := filepath.Join(h.proj, "..", id+".jsonl")
			for i := 0; i < turns; i++ {
				q, r := fmt.Sprintf("%s-question-%d", id, i), fmt.Sprintf("%s-answer-%d", id, i)
				if _, code := h.proc(t, h.input(id, "UserPromptSubmit", "prompt", q), nil, "hook", "user-prompt-submit"); code != 0 {
					t.Errorf("exit %d", code)
				}
				appendLine(t, tr, userLine(q))
				if _, code := h.proc(t, h.input(id, "Stop", "last_assistant_message", r), nil, "hook", "stop"); code != 0 {
					t.Errorf("exit %d", code)
				}
				appendLine(t, tr, assistantLine(fmt.Sprintf("m-%s-%d", id, i), r)) // lands after Stop
			}
			h.proc(t, h.input(id, "SessionEnd", "reason", "other"), nil, "hook", "session-end")
		}(s)
	}
	wg.Wait()
	close(stop)
	time.Sleep(50 * time.Millisecond)
	got := h.daily()
	if strings.Count(got, "type: daily") != 1 {
		t.Fatalf("frontmatter count wrong:\n%s", got)
	}
	for s := 0; s < sessions; s++ {
		for i := 0; i < turns; i++ {
			for _, w := range []string{"question", "answer"} {
				needle := fmt.Sprintf("sess%d-%s-%d\n", s, w, i)
				if n := strings.Count(got, needle); n != 1 {
					t.Errorf("%q appears %d times", strings.TrimSpace(needle), n)
				}
			}
		}
	}
	if t.Failed() {
		t.Log(got)
	}
}

// TestKilledFlushRecoversExactlyOnce kills flushes at every named point and
// at random moments, then checks that recovery writes each segment once.
func TestKilledFlushRecoversExactlyOnce(t *testing.T) {
	points := []string{"after-read", "after-distill", "after-intent", "after-append", "after-commit"}
	for _, point := range points {
		t.Run(point, func(t *testing.T) {
			h := newHookEnv(t)
			for i := 0; i < 3; i++ {
				h.turn(t, "s1", fmt.Sprintf("question %d", i), fmt.Sprintf("answer %d", i))
			}
			out, code := h.proc(t, h.input("s1", "SessionEnd", "reason", "other"), []string{CrashEnv + "=" + point}, "hook", "session-end")
			if code != 86 || out != "" {
				t.Fatalf("the crash hook did not fire: exit %d", code)
			}
			// The next session of the project recovers the ended session.
			out, _ = h.proc(t, h.input("s2", "SessionStart", "source", "startup"), nil, "hook", "session-start")
			h.proc(t, "", nil, "flush", "--pending")
			got := h.daily()
			if n := strings.Count(got, "question 1"); n != 1 {
				t.Fatalf("segment written %d times:\n%s", n, got)
			}
			if !strings.Contains(out, "question 1") {
				t.Fatalf("the recovered segment is not injected: %q", out)
			}
		})
	}
	t.Run("sigkill at random moments", func(t *testing.T) {
		h := newHookEnv(t)
		rng := rand.New(rand.NewSource(1))
		for round := 0; round < 8; round++ {
			for i := 0; i < 2; i++ {
				h.turn(t, "s1", fmt.Sprintf("r%d-question-%d", round, i), fmt.Sprintf("r%d-answer-%d", round, i))
			}
			cmd := exec.Command(memhookBin, "flush", "--session", "s1")
			cmd.Env = envList(h.env)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Duration(rng.Intn(8000)) * time.Microsecond)
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()
		}
		h.proc(t, "", nil, "flush", "--pending")
		got := h.daily()
		for round := 0; round < 8; round++ {
			for i := 0; i < 2; i++ {
				needle := fmt.Sprintf("r%d-question-%d\n", round, i)
				if n := strings.Count(got, needle); n != 1 {
					t.Errorf("%q appears %d times", strings.TrimSpace(needle), n)
				}
			}
		}
		if strings.Count(got, "type: daily") != 1 {
			t.Errorf("broken frontmatter")
		}
		if t.Failed() {
			t.Log(got)
		}
	})
}
