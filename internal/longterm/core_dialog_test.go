package longterm

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// TestReviewAsksAboutEachProposal: at a terminal the person adds one
// proposal, drops one and skips one; each answer does what it says, the
// addition goes through Commit, and the skipped one still waits. An id
// that waits nowhere is an error pointing at the list.
func TestReviewAsksAboutEachProposal(t *testing.T) {
	s := newProject(t)
	if _, err := s.ProposeCore([]CoreProposal{
		{Day: "2026-11-29", Line: "- tests before commits", Reply: "always run tests first"},
		{Day: "2026-11-29", Time: "10:00", Line: "- no force pushes", Reply: "never force push"},
		{Day: "2026-11-29", Line: "- tabs", Reply: "tabs"},
	}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	var commits []string
	r := CoreReview{
		Terminal: true, In: strings.NewReader("a\nd\ns\n"), Out: &out, Max: 2000, Now: now,
		Commit: func(action string, fn func() error) error { commits = append(commits, action); return fn() },
	}
	if err := s.Review(r); err != nil {
		t.Fatal(err)
	}
	if core := testfile.Read(t, s.Path(CoreFile)); !strings.Contains(core, "- tests before commits") || strings.Contains(core, "force") {
		t.Errorf("CORE.md:\n%s", core)
	}
	if len(commits) != 1 || !strings.HasPrefix(commits[0], "core review ") {
		t.Errorf("commits %q", commits)
	}
	if !strings.Contains(out.String(), "dropped: - no force pushes") || !strings.Contains(out.String(), "2026-11-29 10:00") {
		t.Errorf("the dialog:\n%s", out.String())
	}
	left, _ := s.CoreProposals()
	if len(left) != 1 || left[0].Line != "- tabs" {
		t.Fatalf("left waiting: %+v", left)
	}
	r.Apply, r.Terminal = []string{"nope"}, false
	err := s.Review(r)
	var hinted interface{ Hint() string }
	if !errors.Is(err, ErrNoProposal) || !errors.As(err, &hinted) || !strings.Contains(hinted.Hint(), "lists the proposals") {
		t.Errorf("an unknown id: %v", err)
	}
	r.Apply = nil
	out.Reset()
	if err := s.Review(r); err != nil || !strings.Contains(out.String(), "add one with `memhook core review --apply ID`") {
		t.Errorf("the list without a terminal: %v\n%s", err, out.String())
	}
}
