//go:build unix

package distill

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

func TestClaudeTimeoutKillsProcessGroup(t *testing.T) {
	// On a loaded machine the stand-in may not reach its fork within a short
	// timeout; then nothing was started to kill, so the run is tried again
	// with a longer one rather than asserting on a grandchild that never was.
	var dir string
	for timeout := 500 * time.Millisecond; ; timeout *= 2 {
		var c Claude
		c, dir = standInClaude(t, "sleep")
		c.Timeout = timeout
		_, err := c.Distill(context.Background(), testSegment())
		if !errors.Is(err, ErrTimeout) {
			t.Fatalf("err = %v, want ErrTimeout", err)
		}
		if b, err := os.ReadFile(filepath.Join(dir, "grandchild")); err == nil && len(strings.TrimSpace(string(b))) > 0 {
			break
		}
		if timeout >= 16*time.Second {
			t.Fatalf("the stand-in never started its grandchild within %v", timeout)
		}
	}
	// The grandchild marks its natural end: only a Distill that waited for
	// it instead of killing the group would return after that.
	if _, err := os.Stat(filepath.Join(dir, "natural")); err == nil {
		t.Fatal("Distill returned after the grandchild's natural end; the timeout did not kill the group")
	}
	pid, err := strconv.Atoi(strings.TrimSpace(testfile.Read(t, filepath.Join(dir, "grandchild"))))
	if err != nil {
		t.Fatal(err)
	}
	// The background sleep the stand-in started must be gone too.
	deadline := time.Now().Add(time.Minute) // a hang guard, not a measure
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("grandchild %d still running after the timeout", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
