//go:build unix

package distill

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

func TestClaudeTimeoutKillsProcessGroup(t *testing.T) {
	c, dir := standInClaude(t, "sleep")
	c.Timeout = 500 * time.Millisecond
	start := time.Now()
	_, err := c.Distill(context.Background(), testSegment())
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("Distill returned after %s; the timeout is %s", elapsed, c.Timeout)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(testfile.Read(t, filepath.Join(dir, "grandchild"))))
	if err != nil {
		t.Fatal(err)
	}
	// The background sleep the stand-in started must be gone too.
	deadline := time.Now().Add(3 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("grandchild %d still running after the timeout", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
