package schedule

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestBackends(t *testing.T) {
	e, state := standIns(t)
	for _, tc := range []struct {
		goos     string
		systemd  bool
		want     []Backend
		wantFail bool
	}{
		{"linux", true, []Backend{Systemd, Cron}, false},
		{"linux", false, []Backend{Cron, Systemd}, false},
		{"darwin", true, []Backend{Launchd}, false},
		{"windows", false, []Backend{Schtasks}, false},
		{"plan9", false, nil, true},
	} {
		os.Remove(filepath.Join(state, "no-systemd"))
		if !tc.systemd {
			os.WriteFile(filepath.Join(state, "no-systemd"), nil, 0o644)
		}
		got, err := e.Backends(tc.goos)
		if (err != nil) != tc.wantFail || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Backends(%s, systemd %v) = %v, %v; want %v (error %v)", tc.goos, tc.systemd, got, err, tc.want, tc.wantFail)
		}
	}
}

// An entry left in cron by an earlier install is removed before systemd's
// is written, and remove clears both.
func TestInstallAllPlanClearsTheOtherBackend(t *testing.T) {
	e, state := standIns(t)
	os.WriteFile(filepath.Join(state, "crontab"), []byte("0 7 * * * /old/memhook rollup >/dev/null # cerebro-rollup\n"), 0o644)
	tg := target(Systemd, t.TempDir())
	backends := []Backend{Systemd, Cron}
	plan, err := e.InstallAllPlan(tg, backends, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Apply(plan); err != nil {
		t.Fatal(err)
	}
	sts := e.Statuses(tg, backends)
	if len(sts) != 1 || sts[0].Backend != Systemd || !sts[0].Installed {
		t.Fatalf("after install: %+v, want only systemd installed", sts)
	}
	if err := e.Apply(e.RemoveAllPlan(tg, backends)); err != nil {
		t.Fatal(err)
	}
	if sts := e.Statuses(tg, backends); len(sts) != 1 || sts[0].Installed {
		t.Errorf("after remove: %+v, want nothing installed", sts)
	}
}
