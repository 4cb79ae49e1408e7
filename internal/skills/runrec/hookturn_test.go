package runrec

import (
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestTurnRecordsASkillDrivenTurn: a tool before any skill records
// nothing; the Skill tool opens a record with the skill at its version;
// the tools after it join that record; Stop closes it with its wall time
// and removes the marker, so the next turn starts clean.
func TestTurnRecordsASkillDrivenTurn(t *testing.T) {
	dir := t.TempDir()
	turn := Turn{Journal: Journal{Dir: dir}, Marker: filepath.Join(dir, "turns", "s1"), Session: "s1",
		Version: func(name string) string { return name + "@3" }}
	if err := turn.Record("Read", "", t0); err != nil {
		t.Fatal(err)
	}
	if err := turn.Record("Skill", "cerebro:digest", t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := turn.Record("memhook recall", "", t0.Add(2*time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := turn.End(t0.Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if id, _, _ := ReadTurnMarker(turn.Marker, t0.Add(11*time.Second)); id != "" {
		t.Errorf("the marker outlived Stop: %q", id)
	}
	if err := turn.Record("Read", "", t0.Add(12*time.Second)); err != nil {
		t.Fatal(err)
	}
	s, err := OpenStore(turn.Journal)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	runs, err := s.Runs(Filter{})
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs %+v %v", runs, err)
	}
	r := runs[0]
	if r.Kind != KindTurn || r.Session != "s1" || r.Open || r.Seconds != 9 {
		t.Errorf("run %+v", r)
	}
	if len(r.Skills) != 1 || r.Skills[0].Name != "digest" || r.Skills[0].Version != "digest@3" {
		t.Errorf("skills %+v", r.Skills)
	}
	if !slices.Equal(r.Tools, []string{"Skill(digest)", "memhook recall"}) {
		t.Errorf("tools %q", r.Tools)
	}
}
