package longterm

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestChangeCommitsWhatItChanged: a change to a memory with its own
// history is one commit named by the action, also when the change fails
// after writing; a memory that is off only runs the change, with no
// warning.
func TestChangeCommitsWhatItChanged(t *testing.T) {
	s := newProject(t)
	clock := func() time.Time { return now }
	var warnings []string
	warn := func(m string) { warnings = append(warnings, m) }
	page := filepath.Join(s.Dir, "wiki", "Note.md")
	err := s.Change(GitAuto, "wiki write wiki/Note.md", clock, warn, func() error {
		return os.WriteFile(page, []byte("# Note\n"), 0o644)
	})
	if err != nil || len(warnings) != 0 {
		t.Fatalf("change: %v, warnings %q", err, warnings)
	}
	failed := errors.New("refused after writing")
	err = s.Change(GitAuto, "truth set wiki/Note.md", clock, warn, func() error {
		os.WriteFile(page, []byte("# Note\n\nmore\n"), 0o644)
		return failed
	})
	if !errors.Is(err, failed) {
		t.Fatalf("the change's own error was lost: %v", err)
	}
	h, err := s.History(GitAuto, now)
	if err != nil {
		t.Fatal(err)
	}
	log, err := h.Log("wiki/Note.md", 0)
	if err != nil || len(log) != 2 {
		t.Fatalf("log of the page: %+v, %v", log, err)
	}
	if !strings.Contains(log[0].Message, "truth set") || !strings.Contains(log[1].Message, "wiki write") {
		t.Errorf("commit messages %q, %q", log[0].Message, log[1].Message)
	}

	off := New(t.TempDir())
	ran := false
	if err := off.Change(GitAuto, "fact add", clock, warn, func() error { ran = true; return nil }); err != nil || !ran {
		t.Fatalf("inactive memory: ran %v, %v", ran, err)
	}
	if len(warnings) != 0 {
		t.Errorf("an inactive memory warned: %q", warnings)
	}
}
