package longterm

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestSyncAllKeepsGoingPastAProjectThatCannotSync: of three projects,
// one syncs with its own file:// remote, one has no history of its own
// (skipped, not a failure) and one is gone; the report says each, and
// only the one gone needs a person.
func TestSyncAllKeepsGoingPastAProjectThatCannotSync(t *testing.T) {
	synced, unversioned := newProject(t), newProject(t)
	gone := filepath.Join(t.TempDir(), "gone")
	modes := map[string]string{synced.Project: GitOwn, unversioned.Project: GitOff}
	stores := map[string]*Store{synced.Project: synced, unversioned.Project: unversioned}
	remotes := t.TempDir()
	rows := SyncAll(context.Background(), SyncRequest{
		Roots:  []string{synced.Project, unversioned.Project, gone},
		Remote: "file://" + remotes + "/{project}.git",
		Now:    now,
		Open:   func(root string) (*History, error) { return stores[root].History(modes[root], now) },
	})
	if len(rows) != 3 {
		t.Fatalf("rows: %+v", rows)
	}
	if rows[0].Result == nil || rows[0].Result.State != "pushed" || rows[0].Trouble() {
		t.Errorf("the versioned project: %+v", rows[0])
	}
	if rows[1].Skipped == "" || rows[1].Trouble() {
		t.Errorf("the unversioned project: %+v", rows[1])
	}
	if !strings.Contains(rows[2].Error, "not reachable") || !rows[2].Trouble() {
		t.Errorf("the project gone: %+v", rows[2])
	}
	var out, errw bytes.Buffer
	WriteSyncRows(&out, &errw, rows, false)
	if n := Troubled(rows); n != 1 {
		t.Errorf("troubled: %d, want 1", n)
	}
	if !strings.Contains(out.String(), "long sync "+synced.Project+": pushed with file://") || strings.Count(out.String(), "\n") != 1 {
		t.Errorf("stdout:\n%s", out.String())
	}
	if !strings.HasPrefix(errw.String(), "memhook: error: long sync "+gone+": ") {
		t.Errorf("stderr:\n%s", errw.String())
	}
	out.Reset()
	if WriteSyncRows(&out, &errw, rows[:1], true); out.Len() != 0 {
		t.Errorf("quiet printed %q", out.String())
	}
}
