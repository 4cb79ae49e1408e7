package night

import (
	"path/filepath"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/claude"
)

// Two nights run at once, each with its own budget file, still share the
// user's count of the day's calls.
func TestNightsShareTheDaysCalls(t *testing.T) {
	dir := t.TempDir()
	day := claude.Budget{Dir: filepath.Join(dir, claude.UseNight), Limit: 3}
	a := LoadBudget(filepath.Join(dir, "a.json"), "2026-12-01", 3, 1000)
	b := LoadBudget(filepath.Join(dir, "b.json"), "2026-12-01", 3, 1000)
	a.Day, b.Day = &day, &day
	allowed := 0
	for i := 0; i < 3; i++ {
		for _, n := range []*Budget{a, b} {
			if n.Allow("prompt") {
				n.Reserve(EstimateTokens("prompt"))
				allowed++
			}
		}
	}
	if allowed != 3 {
		t.Fatalf("two nights made %d calls together, want the day's 3", allowed)
	}
	if !a.Stopped || !b.Stopped {
		t.Fatalf("a night went on past the day's calls: a=%v b=%v", a.Stopped, b.Stopped)
	}
	other := LoadBudget("", "2026-12-02", 3, 1000)
	other.Day = &day
	if !other.Allow("prompt") {
		t.Fatal("the next night found the day's calls spent")
	}
}
