package blackbox

import (
	"path/filepath"
	"testing"
)

// TestScanProjectsRanksEveryProjectAlike: passages of the asking project
// and of another are scored by one measure; a tie goes to the asking
// project's, another's carries its id; the limit holds over them all.
func TestScanProjectsRanksEveryProjectAlike(t *testing.T) {
	own, other := t.TempDir(), t.TempDir()
	ownFile := filepath.Join(own, "notes.md")
	otherFile := filepath.Join(other, "notes.md")
	writeFile(t, ownFile, "# Notes\n\n## deploy\nThe deploy runs at night\n")
	writeFile(t, otherFile, "# Notes\n\n## deploy\nThe deploy runs at night\n\n## cron\nThe deploy cron runs at night from the runner\n")
	projects := []ProjectRanges{
		{ID: "billing", Base: other, Ranges: []Range{{Path: otherFile, From: 1, To: 8}}},
		{Base: own, Ranges: []Range{{Path: ownFile, From: 1, To: 4}}},
	}
	hits := ScanProjects(projects, "when does the deploy cron run from the runner", 5)
	if len(hits) != 3 {
		t.Fatalf("hits %+v", hits)
	}
	if hits[0].Project != "billing" || hits[0].Path != "billing:notes.md" || hits[0].Heading != "cron" {
		t.Errorf("the best passage first: %+v", hits[0])
	}
	if hits[1].Project != "" || hits[1].Path != "notes.md" || hits[1].Score != hits[2].Score {
		t.Errorf("on a tie the asking project's first: %+v, %+v", hits[1], hits[2])
	}
	if got := ScanProjects(projects, "when does the deploy cron run from the runner", 1); len(got) != 1 || got[0].Heading != "cron" {
		t.Errorf("limit 1: %+v", got)
	}
}
