package factory

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/org/orgvault"
	"github.com/cerebro-mem/cerebro/internal/org/rollup"
)

// The first dashboard of a new desk lays out the org vault (and says so)
// before it reads the registry; the second finds both in place.
func TestRollupLaysOutTheVaultThenBuilds(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{"HOME": home, "CEREBRO_HOME": filepath.Join(home, "cerebro"),
		"CEREBRO_STATE_DIR": filepath.Join(home, "state"), "XDG_CONFIG_HOME": filepath.Join(home, ".config")}
	var errb bytes.Buffer
	f := New(System{Err: &errb, Getenv: func(k string) string { return env[k] }})
	today := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	r, err := f.Rollup(today, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := orgvault.Open(f.Paths.Home); err != nil {
		t.Fatalf("no vault after the first rollup: %v", err)
	}
	if !strings.Contains(errb.String(), "created the org vault at "+f.Paths.Home) {
		t.Errorf("the vault's creation was not announced: %q", errb.String())
	}
	md, err := os.ReadFile(filepath.Join(f.Paths.DeskShortDir(), rollup.DashboardFile))
	if err != nil || !strings.Contains(string(md), r.Date) || r.Date != "2026-11-30" {
		t.Fatalf("dashboard of %s: %v\n%s", r.Date, err, md)
	}
	errb.Reset()
	if _, err := f.Rollup(today, false); err != nil || errb.Len() != 0 {
		t.Fatalf("second rollup: %v, said %q", err, errb.String())
	}
}
