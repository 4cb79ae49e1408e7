package rollup

import (
	"errors"
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

// The dashboard is printed as the last run wrote it; before any run the
// error says so in a way the front end can tell apart.
func TestReadDashboardIsTheLastBuild(t *testing.T) {
	p := plant(t)
	dir := filepath.Dir(p.registry)
	if _, err := ReadDashboard(dir); !errors.Is(err, ErrNoDashboard) || !strings.Contains(err.Error(), filepath.Join(dir, DashboardFile)+" does not exist yet") {
		t.Fatalf("before a build: %v", err)
	}
	if _, err := Build(dir, p.opts(), time.Now); err != nil {
		t.Fatal(err)
	}
	got, err := ReadDashboard(dir)
	want, _ := os.ReadFile(filepath.Join(dir, DashboardFile))
	if err != nil || len(want) == 0 || string(got) != string(want) {
		t.Fatalf("after a build: %v\n%s", err, got)
	}
}
