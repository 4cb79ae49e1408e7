package capture

import (
	"os"
	"testing"
	"time"
)

func FuzzParseState(f *testing.F) {
	f.Add([]byte(`{"offset":10,"journal_offset":5,"carried":[{"k":"x"}]}`))
	f.Add([]byte(`{"offset":-1}`))
	f.Add([]byte(`nul`))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := parseState(data)
		if err == nil && (st.Offset < 0 || st.JournalOffset < 0) {
			t.Fatal("negative offset accepted")
		}
	})
}

// A process killed between the two writes of Save leaves the main file a
// revision behind its durable copy; Load then asks for a recount of the
// journal. An update that touches no counter must still leave a state
// that loads, the recount done.
func TestUpdateAfterALaggingMainFileLeavesALoadableState(t *testing.T) {
	x := Store{Root: t.TempDir()}.Session("p", "s")
	st, err := x.Capture(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC), "user", "add the flag", Meta{Project: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	lagging, err := os.ReadFile(x.StatePath())
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Save(st); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(x.StatePath(), lagging, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := x.Update(func(st *State) error { st.Import = ImportRunning; return nil }); err != nil {
		t.Fatal(err)
	}
	got, err := x.Load()
	if err != nil {
		t.Fatalf("the state no longer loads: %v", err)
	}
	if got.JournalSize <= 0 || got.SegReplies != 1 || got.Import != ImportRunning {
		t.Fatalf("state after the update: journal %d, segment replies %d, import %q", got.JournalSize, got.SegReplies, got.Import)
	}
}
