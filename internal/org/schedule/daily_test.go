package schedule

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/config"
)

// The entry's time is --at when given, else night.time from the user's
// settings; anything but HH:MM is refused.
func TestClockTakesAtOrTheNightsTime(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config")}
	get := func(k string) string { return env[k] }
	eff := config.Load(get, "")
	if h, m, err := Clock("07:30", eff); err != nil || h != 7 || m != 30 {
		t.Errorf("--at 07:30: %d:%d %v", h, m, err)
	}
	at, _ := NightTime(eff)
	if h, m, err := Clock("", eff); err != nil || fmt.Sprintf("%02d:%02d", h, m) != at || at != "04:00" {
		t.Errorf("default %s: %d:%d %v", at, h, m, err)
	}
	if _, _, err := Clock("7h", eff); !errors.Is(err, ErrBadClock) {
		t.Errorf("7h: %v", err)
	}
}

// The entry runs memhook by its real path: a link is resolved, and no
// path at all is an error the caller can name.
func TestExecutableResolvesLinks(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "memhook")
	os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(bin, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	want, _ := filepath.EvalSymlinks(bin)
	if got, err := Executable(link); err != nil || got != want {
		t.Errorf("link: %q %v, want %q", got, err, want)
	}
	if _, err := Executable(""); !errors.Is(err, ErrNoExecutable) {
		t.Errorf("no path: %v", err)
	}
}

// An install plan for another OS runs `memhook schedule run --home DESK`
// at the time asked, and the plan says so.
func TestEntryPlansTheDailyRun(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{"HOME": home, "PATH": ""}
	e, err := UserEntry(func(k string) string { return env[k] }, "darwin")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := e.Install("/opt/memhook", "/desk", 4, 5, false)
	if err != nil {
		t.Fatal(err)
	}
	d := plan.Describe()
	if !strings.Contains(d, "/opt/memhook") || !strings.Contains(d, "/desk") || !strings.Contains(e.Installed(4, 5), "daily at 04:05") {
		t.Errorf("plan:\n%s\n%s", d, e.Installed(4, 5))
	}
	if _, err := UserEntry(func(string) string { return "" }, "darwin"); !errors.Is(err, ErrNoHome) {
		t.Errorf("no home: %v", err)
	}
}
