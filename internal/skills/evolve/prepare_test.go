package evolve

import (
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
)

// Only a recorded recall with a skill that has a candidate is shadowed:
// a shadow must never write memory.
func TestShadowOfRefusesWhatIsNotARecallWithACandidate(t *testing.T) {
	j := runrec.Journal{Dir: t.TempDir()}
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	remember, recall := runrec.NewID(now), runrec.NewID(now.Add(time.Second))
	j.Append(runrec.Run{ID: remember, Time: now, Kind: runrec.KindRemember, Skills: []runrec.Skill{{Name: "memory"}}})
	j.Append(runrec.Run{ID: recall, Time: now, Kind: runrec.KindRecall, Skills: []runrec.Skill{{Name: "memory"}}})
	none := func(string) string { return "" }
	for id, want := range map[string]string{
		"r-missing": `no run "r-missing"`,
		remember:    "only recalls are shadowed",
		recall:      "skill memory not found",
	} {
		if _, _, _, err := ShadowOf(j, id, none); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", id, err, want)
		}
	}
}
