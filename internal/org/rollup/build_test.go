package rollup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBuildWritesAndLogsEachRun: a run writes the dashboard and one log
// line with the dashboard's date and the real clock's duration; a corrupt
// registry is the run's warning, and still logged.
func TestBuildWritesAndLogsEachRun(t *testing.T) {
	p := plant(t)
	dir := filepath.Dir(p.registry)
	clock := today
	now := func() time.Time { clock = clock.Add(1500 * time.Millisecond); return clock }
	r, err := Build(dir, p.opts(), now)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, DashboardFile)); err != nil {
		t.Fatal(err)
	}
	if len(r.RegistryProblems()) != 0 {
		t.Errorf("a good registry gave warnings: %q", r.RegistryProblems())
	}
	writeFile(t, p.registry, `{"projects": [`, time.Time{})
	r, err = Build(dir, p.opts(), now)
	if err != nil {
		t.Fatal(err)
	}
	if w := r.RegistryProblems(); len(w) != 1 {
		t.Errorf("a corrupt registry: warnings %q", w)
	}
	log, _ := os.ReadFile(filepath.Join(dir, LogFile))
	lines := strings.Split(strings.TrimSpace(string(log)), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "date="+r.Date) || !strings.Contains(lines[0], "duration_ms=1500") || !strings.Contains(lines[1], "problems=1") {
		t.Errorf("rollup.log:\n%s", log)
	}
}
