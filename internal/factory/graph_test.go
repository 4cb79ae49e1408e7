package factory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/project"
)

// A relation linked by hand is logged in long-term memory's log.md when
// that memory is on, and only then; the relation is recorded either way.
func TestGraphLinkLogsWhereLongTermIsOn(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{"HOME": home, "CEREBRO_HOME": filepath.Join(home, "desk"), "CEREBRO_CONFIG": filepath.Join(home, "none.toml")}
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	f := New(System{Getenv: func(k string) string { return env[k] }, Now: func() time.Time { return now }})
	for _, on := range []bool{false, true} {
		root := filepath.Join(home, map[bool]string{false: "off", true: "on"}[on])
		long := project.Layout{Root: root}.LongDir()
		if err := os.MkdirAll(long, 0o755); err != nil {
			t.Fatal(err)
		}
		if !on {
			if err := os.WriteFile(filepath.Join(long, project.LongOffMarker), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		r, err := f.GraphLink(root, "Lab", "Campus", "is on", "")
		if err != nil || r.From != "Lab" || r.To != "Campus" {
			t.Fatalf("on=%v: %+v %v", on, r, err)
		}
		log, _ := os.ReadFile(filepath.Join(long, longterm.LogFile))
		if got := strings.Contains(string(log), "graph link · Lab · is on · Campus"); got != on {
			t.Errorf("on=%v: log.md has the link: %v\n%s", on, got, log)
		}
	}
}
