package longterm

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestCommandsOverTheStore: lint of a project without memory says how to
// create it; wiki index rebuilds once, logs it, then is up to date; a
// roll-up of a closed week is written and its report names it.
func TestCommandsOverTheStore(t *testing.T) {
	_, err := New(t.TempDir()).LintProject(2000)
	var hinted interface{ Hint() string }
	if err == nil || !errors.As(err, &hinted) || hinted.Hint() != "run `memhook long on` first" {
		t.Errorf("lint without memory: %v", err)
	}
	s := newProject(t)
	if _, err := s.LintProject(2000); err != nil {
		t.Errorf("lint of a new scaffold: %v", err)
	}
	if _, err := s.WritePage("wiki/Topic.md", []byte("---\ntype: topic\n---\n# Topic\n"), now); err != nil {
		t.Fatal(err)
	}
	before := len(logLines(t, s))
	if name, changed, err := s.Rebuild("index", now); err != nil || name != IndexFile {
		t.Fatalf("rebuild: %s %v %v", name, changed, err)
	}
	if _, changed, _ := s.Rebuild("index", now); changed {
		t.Error("a second rebuild changed the index")
	}
	if n := len(logLines(t, s)); n > before+1 {
		t.Errorf("log.md grew by %d lines for one rebuild", n-before)
	}
	day(t, s, "2026-11-17", session("09:00", "how do backups run", "nightly", ""))
	res, err := s.RollupDaysNoData(nil, now)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	res.WriteText(&b, s.RollupDir)
	if !strings.Contains(b.String(), "wrote week/2026-W47.md") || !strings.Contains(b.String(), "roll-ups written") {
		t.Errorf("rollup said:\n%s", b.String())
	}
}
