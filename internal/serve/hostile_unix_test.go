//go:build unix

package serve_test

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMemoryBrowserInAHostileRepo: a FIFO planted as a daily note is
// refused without blocking the server, and a memory folder planted as a
// link out of the project lists nothing from where it points.
func TestMemoryBrowserInAHostileRepo(t *testing.T) {
	m := newMemory(t)
	daily := filepath.Join(m.root, ".claude", "memory_short", "daily")
	os.MkdirAll(daily, 0o755)
	if err := syscall.Mkfifo(filepath.Join(daily, "2026-01-02.md"), 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "1999-12-31.md"), []byte("not this project's memory"), 0o644)
	archive := filepath.Join(m.root, ".claude", "memory_short", "archive")
	os.RemoveAll(archive)
	if err := os.Symlink(outside, archive); err != nil {
		t.Fatal(err)
	}
	m.start(t)
	c := &http.Client{Timeout: 10 * time.Second}
	code, _ := get(t, c, newReq(t, "GET", m.url+"/en/memory/file?path="+url.QueryEscape(".claude/memory_short/daily/2026-01-02.md"), ""))
	if code != http.StatusNotFound {
		t.Errorf("a FIFO as a note: status %d, want 404", code)
	}
	code, body := get(t, c, newReq(t, "GET", m.url+"/en/memory", ""))
	if code != 200 || strings.Contains(body, "1999-12-31") {
		t.Errorf("the memory page (%d) lists a day from outside the project:\n%s", code, body)
	}
	if code, _ := get(t, c, newReq(t, "GET", m.url+"/en/dashboard", "")); code != 200 {
		t.Errorf("the dashboard: status %d", code)
	}
}
