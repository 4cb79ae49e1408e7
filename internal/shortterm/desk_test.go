package shortterm

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeskSessionKeepsTheOperatorsWork: a session in the desk ($CEREBRO_HOME)
// that runs /org_* commands is flushed with its requests and outcomes; the
// same turns in a project are housekeeping.
func TestDeskSessionKeepsTheOperatorsWork(t *testing.T) {
	turns := [][2]string{
		{"/org_dashboard", "Three projects are active; apollo is stale, so I flagged it for a review."},
		{"/cerebro:org_ingest --case apollo", "I drafted cases/apollo.md from apollo's long-term memory."},
		{"/org_rollup", "I rebuilt rollup.md. We decided to pause hermes, because the budget is not approved."},
	}
	flushed := func(desk bool) string {
		f := newMemory(t)
		if desk {
			f.m.Desk = f.root
		} else {
			f.m.Desk = filepath.Join(filepath.Dir(f.root), "cerebro")
		}
		for _, tr := range turns {
			h := f.hook("d1")
			h.Text = tr[0]
			if err := f.m.UserPromptSubmit(h); err != nil {
				t.Fatal(err)
			}
			h.Text = tr[1]
			if err := f.m.Stop(context.Background(), h); err != nil {
				t.Fatal(err)
			}
		}
		f.end(t, "d1")
		files, _ := filepath.Glob(filepath.Join(f.root, ".claude", "memory_short", "daily", "*.md"))
		var all strings.Builder
		for _, p := range files {
			b, _ := os.ReadFile(p)
			all.Write(b)
		}
		return all.String()
	}
	desk := flushed(true)
	for _, want := range []string{"/cerebro:org_ingest --case apollo", "drafted cases/apollo.md", "pause hermes"} {
		if !strings.Contains(desk, want) {
			t.Errorf("the desk's day lacks %q:\n%s", want, desk)
		}
	}
	if project := flushed(false); strings.Contains(project, "pause hermes") {
		t.Fatalf("outside the desk the org commands kept their replies:\n%s", project)
	}
}
