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

	"github.com/cerebro-mem/cerebro/internal/factory"
)

// memhookBin is the binary built once for the tests that run real
// processes; hotBin is memhook-hot, built beside it as make does.
var memhookBin, hotBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "memhook-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	memhookBin, hotBin = filepath.Join(dir, "memhook"), filepath.Join(dir, "memhook-hot")
	for bin, pkg := range map[string]string{memhookBin: "../../cmd/memhook", hotBin: "../../cmd/memhook-hot"} {
		if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "build %s: %v\n%s", pkg, err, out)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// proc runs the built memhook with h's environment (and extra variables);
// with h.hot, the per-turn hooks go to memhook-hot, as scripts/memhook
// routes them.
func (h *hookEnv) proc(t *testing.T, stdin string, extra []string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(h.binFor(args), args...)
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

// binFor is the binary that runs args: with h.hot, memhook-hot for the
// hooks scripts/memhook routes to it.
func (h *hookEnv) binFor(args []string) string {
	if h.hot && len(args) == 2 && args[0] == "hook" {
		switch args[1] {
		case "user-prompt-submit", "stop", "post-tool-use":
			return hotBin
		}
	}
	return memhookBin
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
	for _, hot := range []bool{false, true} {
		t.Run(fmt.Sprintf("memhook-hot=%v", hot), func(t *testing.T) {
			h := newHookEnv(t)
			h.hot = hot
			concurrentSessions(t, h)
		})
	}
}

func concurrentSessions(t *testing.T, h *hookEnv) {
	h.env["CEREBRO_SHORT_FLUSH_REPLIES"] = "6"
	const sessions, turns = 4, 9
	var wg sync.WaitGroup
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
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
				q, r := fmt.Sprintf("Please rename the %s file number %d.", id, i), fmt.Sprintf("I renamed the %s file number %d.", id, i)
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
	<-stopped // the last flush --pending has ended: the daily file is whole
	got := h.daily()
	if strings.Count(got, "type: daily") != 1 {
		t.Fatalf("frontmatter count wrong:\n%s", got)
	}
	asked, done := bulletsUnder(got, "### Asked"), repliesIn(got)
	for s := 0; s < sessions; s++ {
		for i := 0; i < turns; i++ {
			key := fmt.Sprintf("sess%d file number %d.", s, i)
			if n := countContaining(asked, key); n != 1 {
				t.Errorf("request %q in Asked %d times", key, n)
			}
			if n := countContaining(done, key); n != 1 {
				t.Errorf("reply %q in Done %d times", key, n)
			}
		}
	}
	if h.hot {
		// The flushes that came due at Stop were handed to memhook.
		handed := 0
		for _, e := range h.log(t) {
			if e.Event == "stop" && e.Message == "from memhook-hot: flush due" {
				handed++
			}
		}
		if handed == 0 {
			t.Error("memhook-hot handed no due flush to memhook")
		}
	}
	if t.Failed() {
		t.Log(got)
	}
}

// TestKilledFlushRecoversExactlyOnce kills flushes at every named point and
// at random moments, then checks that recovery writes each segment once.
func TestKilledFlushRecoversExactlyOnce(t *testing.T) {
	points := []string{"after-read", "after-distill", "after-intent", "after-append", "after-commit", "after-forget"}
	for _, point := range points {
		t.Run(point, func(t *testing.T) {
			h := newHookEnv(t)
			for i := 0; i < 3; i++ {
				h.turn(t, "s1", fmt.Sprintf("Please add question %d.", i), fmt.Sprintf("I added question %d.", i))
			}
			out, code := h.proc(t, h.input("s1", "SessionEnd", "reason", "other"), []string{factory.CrashEnv + "=" + point}, "hook", "session-end")
			if code != 86 || out != "" {
				t.Fatalf("the crash hook did not fire: exit %d", code)
			}
			// The next session of the project recovers the ended session.
			out, _ = h.proc(t, h.input("s2", "SessionStart", "source", "startup"), nil, "hook", "session-start")
			h.proc(t, "", nil, "flush", "--pending")
			got := h.daily()
			if n := countContaining(bulletsUnder(got, "### Asked"), "question 1."); n != 1 {
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
				h.turn(t, "s1", fmt.Sprintf("Please fix bug %d of round %d.", i, round), fmt.Sprintf("I fixed bug %d of round %d.", i, round))
			}
			cmd := exec.Command(memhookBin, "flush", "--session", "s1")
			cmd.Env = envList(h.env)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Duration(rng.Intn(8000)) * time.Microsecond)
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()
			if round%2 == 1 {
				// Keep segments within the distillate's list bounds.
				h.proc(t, "", nil, "flush", "--session", "s1")
			}
		}
		h.proc(t, "", nil, "flush", "--pending")
		got := h.daily()
		asked, done := bulletsUnder(got, "### Asked"), repliesIn(got)
		for round := 0; round < 8; round++ {
			for i := 0; i < 2; i++ {
				key := fmt.Sprintf("bug %d of round %d.", i, round)
				if n := countContaining(asked, key); n != 1 {
					t.Errorf("request %q in Asked %d times", key, n)
				}
				if n := countContaining(done, key); n != 1 {
					t.Errorf("reply %q in Done %d times", key, n)
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

// bulletsUnder returns the bullets of every subsection with heading.
func bulletsUnder(daily, heading string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(daily, "\n") {
		switch {
		case strings.HasPrefix(l, "### "):
			in = l == heading
		case strings.HasPrefix(l, "## "):
			in = false
		case in && strings.HasPrefix(l, "- "):
			out = append(out, strings.Join(strings.Fields(strings.TrimPrefix(l, "- ")), " "))
		}
	}
	return out
}

// repliesIn are the assistant's words a daily file keeps: the answer
// under each request and each section's final message (Done holds only
// what the tools showed).
func repliesIn(daily string) []string {
	var out []string
	for _, l := range strings.Split(daily, "\n") {
		if a, ok := strings.CutPrefix(l, "  - answer: "); ok {
			out = append(out, a)
		}
	}
	return append(out, bulletsUnder(daily, "### Final message")...)
}

func countContaining(list []string, s string) int {
	n := 0
	for _, l := range list {
		if strings.Contains(l, s) {
			n++
		}
	}
	return n
}
