package mcp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// What the composition writes reaches the log a line an entry, a line
// split across writes included; blank lines are dropped.
func TestLineWriterLogsWholeLines(t *testing.T) {
	var got []string
	w := LineWriter(func(n Note) { got = append(got, n.Level+": "+n.Message) })
	fmt.Fprint(w, "memhook: warning: run record")
	fmt.Fprint(w, " not written\n\n  \nsecond line\nunfinished")
	if strings.Join(got, "|") != "warn: memhook: warning: run record not written|warn: second line" {
		t.Fatalf("logged %q", got)
	}
}

// The run log names the tool of a call's note.
func TestRunLogNamesTheTool(t *testing.T) {
	dir := t.TempDir()
	log := RunLog(dir, func() time.Time { return time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC) })
	log(Note{Level: "info", Tool: "memory_search", MS: 12, Message: "3 results"})
	log(Note{Level: "info", Message: "server started"})
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	var all string
	for _, f := range files {
		b, _ := os.ReadFile(f)
		all += string(b)
	}
	if !strings.Contains(all, "memory_search: 3 results") || !strings.Contains(all, "server started") || !strings.Contains(all, `"mcp"`) {
		t.Fatalf("log: %s", all)
	}
}
