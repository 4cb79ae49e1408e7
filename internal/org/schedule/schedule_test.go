package schedule

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func target(b Backend, home string) Target {
	return Target{
		Backend: b, Home: home, ConfigHome: filepath.Join(home, ".config"),
		Command: []string{"/opt/my tools/memhook", "rollup", "--home", "/home/u/cerebro 100%"},
		Hour:    7, Minute: 5,
	}
}

func TestPlansForEveryBackend(t *testing.T) {
	home := "/home/u"
	cases := []struct {
		b    Backend
		want []string // in Describe, in this order
	}{
		{Systemd, []string{
			"write /home/u/.config/systemd/user/cerebro-rollup.service",
			`ExecStart="/opt/my tools/memhook" rollup --home "/home/u/cerebro 100%%"`,
			"write /home/u/.config/systemd/user/cerebro-rollup.timer",
			"OnCalendar=*-*-* 07:05:00",
			"run: systemctl --user daemon-reload",
			"run: systemctl --user enable --now cerebro-rollup.timer",
		}},
		{Cron, []string{
			`5 7 * * * '/opt/my tools/memhook' rollup --home '/home/u/cerebro 100\%' >/dev/null # cerebro-rollup`,
			"write it back with crontab -",
		}},
		{Launchd, []string{
			"run: launchctl unload -w /home/u/Library/LaunchAgents/com.cerebro-mem.rollup.plist   (a failure here is ignored",
			"write /home/u/Library/LaunchAgents/com.cerebro-mem.rollup.plist",
			"<string>/opt/my tools/memhook</string>",
			"<key>Hour</key>\n   | \t\t<integer>7</integer>",
			"run: launchctl load -w",
		}},
		{Schtasks, []string{
			`run: schtasks /Create /F /SC DAILY /ST 07:05 /TN cerebro-rollup /TR '"/opt/my tools/memhook" rollup --home "/home/u/cerebro 100%"'`,
		}},
	}
	for _, c := range cases {
		p, err := InstallPlan(target(c.b, home))
		if err != nil {
			t.Fatalf("%s: %v", c.b, err)
		}
		d := p.Describe()
		at := 0
		for _, w := range c.want {
			i := strings.Index(d[at:], w)
			if i < 0 {
				t.Errorf("%s plan lacks (in order) %q:\n%s", c.b, w, d)
				break
			}
			at += i + len(w)
		}
		if r := RemovePlan(target(c.b, home)); len(r.Steps) == 0 {
			t.Errorf("%s has no remove plan", c.b)
		}
	}
}

func TestPlanRefusesBadTargets(t *testing.T) {
	tg := target(Cron, "/h")
	tg.Command = []string{"memhook", "rollup"}
	if _, err := InstallPlan(tg); err == nil {
		t.Error("a relative executable was accepted")
	}
	tg = target(Cron, "/h")
	tg.Hour = 24
	if _, err := InstallPlan(tg); err == nil {
		t.Error("24:05 was accepted")
	}
	for goos, want := range map[string]Backend{"darwin": Launchd, "windows": Schtasks, "freebsd": Cron} {
		if b, _ := BackendFor(goos, false); b != want {
			t.Errorf("BackendFor(%s) = %s, want %s", goos, b, want)
		}
	}
	if b, _ := BackendFor("linux", true); b != Systemd {
		t.Errorf("linux with a user manager: %s", b)
	}
	if b, _ := BackendFor("linux", false); b != Cron {
		t.Errorf("linux without a user manager: %s", b)
	}
	if _, err := BackendFor("plan9", false); err == nil {
		t.Error("plan9 has a scheduler?")
	}
}

func TestEditCrontabText(t *testing.T) {
	other := "MAILTO=me\n0 1 * * * backup\n"
	line := "5 7 * * * /x/memhook rollup >/dev/null # cerebro-rollup"
	once := EditCrontabText(other, line)
	if once != other+line+"\n" {
		t.Fatalf("install: %q", once)
	}
	if twice := EditCrontabText(once, line); twice != once {
		t.Errorf("second install changed the crontab: %q", twice)
	}
	moved := EditCrontabText(once, "0 9 * * * /x/memhook rollup >/dev/null # cerebro-rollup")
	if strings.Count(moved, "cerebro-rollup") != 1 || !strings.Contains(moved, "0 9 * * *") {
		t.Errorf("a new time did not replace the old entry: %q", moved)
	}
	if got := EditCrontabText(once, ""); got != other {
		t.Errorf("remove: %q, want %q", got, other)
	}
	if got := EditCrontabText("", ""); got != "" {
		t.Errorf("remove from nothing: %q", got)
	}
}

// standIns writes fake scheduler commands into a bin folder and returns an
// executor whose PATH holds only that folder, and the folder where the fakes
// keep their state. The real scheduler is unreachable from it.
func standIns(t *testing.T) (*Executor, string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the stand-ins are POSIX shell scripts")
	}
	dir := t.TempDir()
	bin, state := filepath.Join(dir, "bin"), filepath.Join(dir, "state")
	os.MkdirAll(bin, 0o755)
	os.MkdirAll(state, 0o755)
	scripts := map[string]string{
		"crontab": `case "$1" in
  -l) if [ -f "$FAKE_STATE/crontab" ]; then cat "$FAKE_STATE/crontab"; else echo "no crontab for tester" >&2; exit 1; fi ;;
  -) cat > "$FAKE_STATE/crontab" ;;
  *) exit 2 ;;
esac`,
		"systemctl": `echo "$*" >> "$FAKE_STATE/systemctl.log"
case "$*" in
  "--user show-environment") if [ -f "$FAKE_STATE/no-systemd" ]; then echo "Failed to connect to bus" >&2; exit 1; fi; echo HOME=/fake ;;
  "--user is-enabled cerebro-rollup.timer") if [ -f "$FAKE_STATE/enabled" ]; then echo enabled; else echo disabled; exit 1; fi ;;
  "--user enable --now cerebro-rollup.timer") : > "$FAKE_STATE/enabled" ;;
  "--user disable --now cerebro-rollup.timer") if [ -f "$FAKE_STATE/enabled" ]; then rm "$FAKE_STATE/enabled"; else exit 1; fi ;;
esac`,
		"launchctl": `echo "$*" >> "$FAKE_STATE/launchctl.log"
case "$1" in unload) [ -f "$FAKE_STATE/loaded" ] || exit 1; rm "$FAKE_STATE/loaded" ;; load) : > "$FAKE_STATE/loaded" ;; esac`,
		"schtasks": `case "$1" in
  /Create) echo "$*" > "$FAKE_STATE/task" ;;
  /Query) [ -f "$FAKE_STATE/task" ] || { echo "ERROR: The system cannot find the file specified." >&2; exit 1; }; cat "$FAKE_STATE/task" ;;
  /Delete) [ -f "$FAKE_STATE/task" ] || exit 1; rm "$FAKE_STATE/task" ;;
esac`,
	}
	for name, body := range scripts {
		script := "#!/bin/sh\nPATH=/usr/bin:/bin\n" + body + "\n"
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return &Executor{Env: []string{"PATH=" + bin, "FAKE_STATE=" + state, "HOME=" + dir}}, state
}

func read(t *testing.T, path string) string {
	t.Helper()
	data, _ := os.ReadFile(path)
	return string(data)
}

func TestCronInstallIsIdempotentAndRemoveIsClean(t *testing.T) {
	e, state := standIns(t)
	os.WriteFile(filepath.Join(state, "crontab"), []byte("0 1 * * * backup\n"), 0o644)
	tg := target(Cron, t.TempDir())
	p, _ := InstallPlan(tg)
	for i := 0; i < 2; i++ {
		if err := e.Apply(p); err != nil {
			t.Fatal(err)
		}
	}
	tab := read(t, filepath.Join(state, "crontab"))
	if strings.Count(tab, "# cerebro-rollup") != 1 || !strings.HasPrefix(tab, "0 1 * * * backup\n") {
		t.Fatalf("crontab after two installs:\n%s", tab)
	}
	st := e.Status(tg)
	if !st.Installed || st.When != "07:05" {
		t.Errorf("status = %+v", st)
	}
	if err := e.Apply(RemovePlan(tg)); err != nil {
		t.Fatal(err)
	}
	if tab := read(t, filepath.Join(state, "crontab")); tab != "0 1 * * * backup\n" {
		t.Errorf("crontab after remove: %q", tab)
	}
	if e.Status(tg).Installed {
		t.Error("still installed after remove")
	}
	// No crontab at all is an empty one, for install and for status.
	os.Remove(filepath.Join(state, "crontab"))
	if st := e.Status(tg); st.Installed || st.Detail != "" {
		t.Errorf("status without a crontab = %+v", st)
	}
}

func TestSystemdInstallStatusRemove(t *testing.T) {
	e, state := standIns(t)
	if !e.SystemdUsable() {
		t.Fatal("the stand-in user manager is not seen")
	}
	home := t.TempDir()
	tg := target(Systemd, home)
	p, _ := InstallPlan(tg)
	for i := 0; i < 2; i++ {
		if err := e.Apply(p); err != nil {
			t.Fatal(err)
		}
	}
	service, timer := systemdPaths(tg)
	if !strings.Contains(read(t, service), "ExecStart=") || !strings.Contains(read(t, timer), "OnCalendar=*-*-* 07:05:00") {
		t.Fatal("unit files not written")
	}
	st := e.Status(tg)
	if !st.Installed || st.When != "07:05" || st.Detail != "is-enabled: enabled" {
		t.Errorf("status = %+v", st)
	}
	if err := e.Apply(RemovePlan(tg)); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{service, timer} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s left behind", f)
		}
	}
	// Removing again is not an error even though disable now fails.
	if err := e.Apply(RemovePlan(tg)); err != nil {
		t.Errorf("second remove: %v", err)
	}
	log := read(t, filepath.Join(state, "systemctl.log"))
	if strings.Count(log, "enable --now cerebro-rollup.timer") != 2 || !strings.Contains(log, "disable --now") {
		t.Errorf("systemctl calls:\n%s", log)
	}
	os.WriteFile(filepath.Join(state, "no-systemd"), nil, 0o644)
	if e.SystemdUsable() {
		t.Error("a failing user manager is seen as usable")
	}
}

func TestLaunchdAndSchtasksThroughStandIns(t *testing.T) {
	e, state := standIns(t)
	home := t.TempDir()
	for _, b := range []Backend{Launchd, Schtasks} {
		tg := target(b, home)
		p, _ := InstallPlan(tg)
		for i := 0; i < 2; i++ {
			if err := e.Apply(p); err != nil {
				t.Fatalf("%s install: %v", b, err)
			}
		}
		if st := e.Status(tg); !st.Installed {
			t.Errorf("%s status after install = %+v", b, st)
		}
		if err := e.Apply(RemovePlan(tg)); err != nil {
			t.Fatalf("%s remove: %v", b, err)
		}
		if st := e.Status(tg); st.Installed {
			t.Errorf("%s still installed: %+v", b, st)
		}
	}
	if st := e.Status(target(Launchd, home)); st.When != "" {
		t.Errorf("removed plist still has a time: %+v", st)
	}
	if log := read(t, filepath.Join(state, "launchctl.log")); strings.Count(log, "load -w") < 2 {
		t.Errorf("launchctl calls:\n%s", log)
	}
}

func TestExecutorUsesOnlyItsOwnPath(t *testing.T) {
	e := &Executor{Env: []string{"PATH=" + t.TempDir()}}
	if _, err := e.Output([]string{"crontab", "-l"}, ""); err == nil || !strings.Contains(err.Error(), "not found on PATH") {
		t.Errorf("crontab was found outside the given PATH: %v", err)
	}
	if e.SystemdUsable() {
		t.Error("systemctl was found outside the given PATH")
	}
}
