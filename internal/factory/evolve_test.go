package factory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/registry"
)

// The daily evolution round goes through every registered project: one
// whose folder is gone is skipped, one that fails is handed over with its
// error and named in the result, and the projects after it still run.
func TestDecideAllSkipsTheGoneAndGoesOnAfterAFailure(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{"HOME": home, "CEREBRO_HOME": filepath.Join(home, "cerebro"),
		"CEREBRO_STATE_DIR": filepath.Join(home, "state"), "XDG_CONFIG_HOME": filepath.Join(home, ".config")}
	f := New(System{Getenv: func(k string) string { return env[k] }})
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	dir := func(name string) string {
		d := filepath.Join(home, "work", name)
		if err := os.MkdirAll(filepath.Join(d, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	gone, broken, fine := dir("gone"), dir("broken"), dir("fine")
	for _, d := range []string{gone, broken, fine} {
		if _, err := registry.Add(f.Paths.Registry(), d, "", f.Paths.Home, f.ProjectRoot, now); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.RemoveAll(gone); err != nil {
		t.Fatal(err)
	}
	// broken's run records cannot be opened: a file stands where their
	// folder goes.
	runs := f.Paths.Runs(project.ID(broken))
	if err := os.MkdirAll(filepath.Dir(runs), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(runs, []byte("not a folder"), 0o644); err != nil {
		t.Fatal(err)
	}

	var got []Decided
	err := f.DecideAll(now, true, func(d Decided) { got = append(got, d) })
	if err == nil || !strings.Contains(err.Error(), "failed in broken") || strings.Contains(err.Error(), "fine") {
		t.Fatalf("DecideAll error = %v, want it to name broken alone", err)
	}
	if len(got) != 2 || got[0].Name != "broken" || got[0].Err == nil || got[1].Name != "fine" || got[1].Err != nil || got[1].Path != fine {
		t.Fatalf("decided %+v, want broken (failed) then fine (decided), gone skipped", got)
	}
	if got[1].Rules.MinVerdicts == 0 {
		t.Errorf("fine was decided without its evolution settings: %+v", got[1].Rules)
	}
}
