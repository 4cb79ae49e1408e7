package distill

import (
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// TestDeskCommandsAreTheDesksWork: in the cerebro desk, the turns of its
// /org_* commands are the operator's work — which projects were reviewed,
// which case was filed, what was decided — and are distilled like any
// request; in a project they stay housekeeping.
func TestDeskCommandsAreTheDesksWork(t *testing.T) {
	items := []transcript.Item{
		user("/org_dashboard"),
		assistant("a1", "Three projects are active. Apollo is stale: no memory for 20 days, so I flagged it for a review."),
		user("/cerebro:org_ingest --case apollo"),
		assistant("a2", "I drafted cases/apollo.md from apollo's long-term memory, with its lessons and decisions."),
		user("/org_rollup"),
		assistant("a3", "I rebuilt rollup.md. We decided to pause hermes until the client signs, because the budget is not approved."),
	}
	desk := Extractive(Segment{Items: items, Desk: true})
	asked := sectionOf(desk, daily.HeadAsked)
	if len(asked) != 3 || !strings.Contains(asked[1], "/cerebro:org_ingest --case apollo") {
		t.Fatalf("the desk's requests are not kept:\n%s", desk)
	}
	for _, want := range []string{"drafted cases/apollo.md", "pause hermes"} {
		if !strings.Contains(desk, want) {
			t.Errorf("the desk's distillate lacks %q:\n%s", want, desk)
		}
	}
	project := Extractive(Segment{Items: items})
	if len(sectionOf(project, daily.HeadAsked)) != 0 || strings.Contains(project, "pause hermes") {
		t.Fatalf("outside the desk the org commands are housekeeping:\n%s", project)
	}
	// Session commands stay housekeeping in the desk too.
	if got := Extractive(Segment{Items: []transcript.Item{user("/clear"), user("/cerebro:flush")}, Desk: true}); got != "" {
		t.Fatalf("housekeeping in the desk: %q", got)
	}
}
