package search

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestRefreshSeesNewEditedAndRemovedFilesWithoutAWalk(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "wiki", "Deploy.md"), "# Deploy\n\nBlue-green deploys.\n")
	write(t, filepath.Join(dir, "daily", "2026-11-29.md"), "- Talked about lunch.\n")
	write(t, filepath.Join(dir, "daily", "2026-11-28.md"), "- Old note.\n")
	ix := indexed(t, t.TempDir(), Root{Dir: dir, Kind: KindShort}, Params{})
	find := func(q string) []string {
		t.Helper()
		st, err := ix.Refresh(context.Background(), now)
		if err != nil || !st.Complete {
			t.Fatalf("refresh: %+v %v", st, err)
		}
		r, err := Search(context.Background(), []*Index{ix}, q, defaults())
		if err != nil {
			t.Fatal(err)
		}
		return paths(r)
	}
	// nothing changed: nothing read again
	if st, err := ix.Refresh(context.Background(), now); err != nil || st.Indexed != 0 || st.Removed != 0 {
		t.Fatalf("refresh of an unchanged memory read %+v (%v)", st, err)
	}
	// an append in place, as the daily flush does: the folder's time is the same
	daily := filepath.Join(dir, "daily", "2026-11-29.md")
	dfi, _ := os.Stat(filepath.Dir(daily))
	f, err := os.OpenFile(daily, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("- Decided to shard the ledger by tenant.\n")
	f.Close()
	later := time.Now().Add(time.Minute)
	os.Chtimes(daily, later, later)
	os.Chtimes(filepath.Dir(daily), dfi.ModTime(), dfi.ModTime())
	if got := find("ledger tenant"); len(got) != 1 || filepath.Base(got[0]) != "2026-11-29.md" {
		t.Fatalf("appended words not found: %v", got)
	}
	// a new file in a new folder and a removed one
	write(t, filepath.Join(dir, "wiki", "ops", "Runbook.md"), "# Runbook\n\nPage the on-call for ledger outages.\n")
	os.Remove(filepath.Join(dir, "wiki", "Deploy.md"))
	if got := find("runbook"); len(got) != 1 {
		t.Fatalf("new file not found: %v", got)
	}
	if got := find("blue green deploys"); len(got) != 0 {
		t.Fatalf("removed file still found: %v", got)
	}
}
