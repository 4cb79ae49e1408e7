package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/planfact"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/registry"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
)

// runExe is run with memhook's own path set, as the scheduler commands
// need it.
func runExe(t *testing.T, env map[string]string, exe string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	sys := factory.System{
		In: strings.NewReader(""), Out: &out, Err: &errb,
		Getenv:     func(k string) string { return env[k] },
		Now:        func() time.Time { return time.Date(2026, 11, 30, 10, 0, 0, 0, time.Local) },
		Executable: exe,
	}
	code := Main(args, sys)
	return out.String(), errb.String(), code
}

// desk is a fake HOME with a desk and one project with a plan-fact.
func desk(t *testing.T) (env map[string]string, proj string) {
	t.Helper()
	home := t.TempDir()
	env = map[string]string{"HOME": home, "CEREBRO_HOME": filepath.Join(home, "cerebro"), "XDG_CONFIG_HOME": filepath.Join(home, ".config")}
	proj = filepath.Join(home, "work", "apollo")
	l := project.Layout{Root: proj}
	os.MkdirAll(l.LongDir(), 0o755)
	os.WriteFile(l.PlanFact(), planfact.Template("apollo", time.Date(2026, 11, 1, 0, 0, 0, 0, time.Local)), 0o644)
	os.MkdirAll(l.DailyDir(), 0o755)
	day := filepath.Join(l.DailyDir(), "2026-11-29.md")
	os.WriteFile(day, []byte("# 2026-11-29\n"), 0o644)
	when := time.Date(2026, 11, 29, 15, 0, 0, 0, time.Local)
	os.Chtimes(day, when, when)
	return env, proj
}

func TestRegistryAddListRemove(t *testing.T) {
	env, proj := desk(t)
	// A folder inside a repository registers the repository's project.
	if _, err := gitrepo.Init(proj); err != nil {
		t.Fatal(err)
	}
	// through its run function (its command lines: options_test.go)
	reg := func(action, target string, asJSON bool) (string, error) {
		f, out := testFactory(env)
		opts := registryOptions(f)
		opts.Action, opts.Target, opts.JSON = action, target, asJSON
		err := registryRun(opts)
		return out.String(), err
	}
	out, err := reg("add", filepath.Join(proj, ".claude"), false)
	if err != nil || !strings.Contains(out, "registered "+proj) {
		t.Fatalf("add: %v %s", err, out)
	}
	if _, err := reg("add", proj, false); err != nil {
		t.Fatalf("adding twice failed: %v", err)
	}
	out, _ = reg("list", "", true)
	var listed struct{ Projects []registry.Project }
	if err := json.Unmarshal([]byte(out), &listed); err != nil || len(listed.Projects) != 1 || listed.Projects[0].ID != project.ID(proj) {
		t.Fatalf("list after two adds: %v %s", err, out)
	}
	if _, err := reg("add", "relative/nowhere", false); err == nil || !strings.Contains(err.Error(), "not an existing directory") {
		t.Errorf("a missing folder was accepted: %v", err)
	}
	os.MkdirAll(env["CEREBRO_HOME"], 0o755)
	if _, err := reg("add", env["CEREBRO_HOME"], false); err == nil || !strings.Contains(err.Error(), "desk itself") {
		t.Errorf("the desk was registered: %v", err)
	}
	if out, err := reg("remove", proj, false); err != nil || !strings.Contains(out, "unregistered") {
		t.Errorf("remove by path: %v %s", err, out)
	}
	if _, err := reg("remove", proj, false); err == nil || !strings.Contains(err.Error(), "no such project") {
		t.Errorf("second remove: %v", err)
	}
}

func TestCorruptRegistryIsReportedAndRepairedByHand(t *testing.T) {
	env, proj := desk(t)
	reg := filepath.Join(env["CEREBRO_HOME"], ".claude", "memory_short", "registry.json")
	os.MkdirAll(filepath.Dir(reg), 0o755)
	bad := []byte("{not json")
	os.WriteFile(reg, bad, 0o644)
	for _, args := range [][]string{{"registry", "list"}, {"registry", "add", proj}} {
		_, errOut, code := run(t, env, "", args...)
		if code != 1 || !strings.Contains(errOut, "corrupt") || !strings.Contains(errOut, "memhook registry repair") {
			t.Errorf("%v: %d %s", args, code, errOut)
		}
	}
	_, errOut, code := run(t, env, "", "rollup")
	if code != 0 || !strings.Contains(errOut, "warning") {
		t.Errorf("rollup over a corrupt registry: %d %s", code, errOut)
	}
	if got, _ := os.ReadFile(reg); !bytes.Equal(got, bad) {
		t.Fatal("the corrupt registry was rewritten")
	}
	out, _, code := run(t, env, "", "registry", "repair")
	if code != 0 || !strings.Contains(out, ".corrupt-20261130") {
		t.Fatalf("repair: %d %s", code, out)
	}
	backups, _ := filepath.Glob(reg + ".corrupt-*")
	if len(backups) != 1 {
		t.Fatalf("backups: %v", backups)
	}
	if got, _ := os.ReadFile(backups[0]); !bytes.Equal(got, bad) {
		t.Error("the backup does not hold the corrupt file")
	}
	if _, _, code := run(t, env, "", "registry", "add", proj); code != 0 {
		t.Error("add after repair failed")
	}
}

func TestRollupCommand(t *testing.T) {
	env, proj := desk(t)
	run(t, env, "", "registry", "add", proj)
	dir := filepath.Join(env["CEREBRO_HOME"], ".claude", "memory_short")
	out, errOut, code := run(t, env, "", "rollup", "--now", "2026-11-30", "--with-git")
	if code != 0 || !strings.Contains(out, "1 active") {
		t.Fatalf("rollup: %d %s %s", code, out, errOut)
	}
	first, _ := os.ReadFile(filepath.Join(dir, "rollup.md"))
	if !strings.Contains(string(first), "| apollo | start | on_track | fresh · 1 day ago |") {
		t.Errorf("dashboard:\n%s", first)
	}
	run(t, env, "", "rollup", "--now", "2026-11-30", "--with-git")
	if second, _ := os.ReadFile(filepath.Join(dir, "rollup.md")); !bytes.Equal(first, second) {
		t.Error("two runs with the same --now differ")
	}
	printed, _, code := run(t, env, "", "rollup", "--print")
	if code != 0 || printed != string(first) {
		t.Error("--print does not show the dashboard as written")
	}
	log, _ := os.ReadFile(filepath.Join(dir, "rollup.log"))
	if lines := strings.Split(strings.TrimSpace(string(log)), "\n"); len(lines) != 2 || !strings.Contains(lines[0], "date=2026-11-30 projects=1 problems=0 duration_ms=") {
		t.Errorf("rollup.log:\n%s", log)
	}
	if _, err := os.Stat(filepath.Join(dir, "cache", project.ID(proj)+".json")); err != nil {
		t.Error(err)
	}
	if _, errOut, code := run(t, env, "", "rollup", "--now", "30.11.2026"); code != 2 || !strings.Contains(errOut, "YYYY-MM-DD") {
		t.Errorf("a bad --now: %s", errOut)
	}
}

func TestRollupPrintWithoutDashboard(t *testing.T) {
	env, _ := desk(t)
	if _, errOut, code := run(t, env, "", "rollup", "--print"); code != 1 || !strings.Contains(errOut, "hint: build it with `memhook rollup`") {
		t.Errorf("%d %s", code, errOut)
	}
}

// fakeSchedulers puts stand-in crontab and systemctl on a PATH of their own.
func fakeSchedulers(t *testing.T, systemd bool) (bin, state string) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-ins are POSIX shell scripts")
	}
	dir := t.TempDir()
	bin, state = filepath.Join(dir, "bin"), filepath.Join(dir, "state")
	os.MkdirAll(bin, 0o755)
	os.MkdirAll(state, 0o755)
	os.WriteFile(filepath.Join(bin, "crontab"), []byte(`#!/bin/sh
PATH=/usr/bin:/bin
case "$1" in
  -l) [ -f "`+state+`/crontab" ] || { echo "no crontab for tester" >&2; exit 1; }; cat "`+state+`/crontab" ;;
  -) cat > "`+state+`/crontab" ;;
esac
`), 0o755)
	ok := "exit 1"
	if systemd {
		ok = "exit 0"
	}
	os.WriteFile(filepath.Join(bin, "systemctl"), []byte("#!/bin/sh\necho \"$*\" >> "+state+"/systemctl.log\n[ \"$2\" = show-environment ] && "+ok+"\n[ \"$2\" = is-enabled ] && echo enabled\nexit 0\n"), 0o755)
	return bin, state
}

func TestScheduleCron(t *testing.T) {
	env, _ := desk(t)
	bin, state := fakeSchedulers(t, false)
	env["PATH"] = bin
	exe := filepath.Join(t.TempDir(), "memhook")
	os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755)

	out, _, code := runExe(t, env, exe, "schedule", "install", "--dry-run", "--at", "06:45")
	want := "45 6 * * * " + exe + " schedule run --home " + env["CEREBRO_HOME"] + " >/dev/null # cerebro-rollup"
	if code != 0 || !strings.Contains(out, want) || !strings.Contains(out, "night: memhook night --all") {
		t.Fatalf("dry run:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(state, "crontab")); err == nil {
		t.Fatal("the dry run changed the crontab")
	}
	for i := 0; i < 2; i++ {
		if _, errOut, code := runExe(t, env, exe, "schedule", "install", "--at", "06:45"); code != 0 {
			t.Fatalf("install: %s", errOut)
		}
	}
	tab, _ := os.ReadFile(filepath.Join(state, "crontab"))
	if string(tab) != want+"\n" {
		t.Errorf("crontab: %q", tab)
	}
	out, _, _ = runExe(t, env, exe, "schedule", "status")
	if !strings.Contains(out, "installed: cron, daily at 06:45") {
		t.Errorf("status:\n%s", out)
	}
	runExe(t, env, exe, "schedule", "remove")
	if tab, _ := os.ReadFile(filepath.Join(state, "crontab")); len(tab) != 0 {
		t.Errorf("crontab after remove: %q", tab)
	}
	if out, _, _ := runExe(t, env, exe, "schedule", "status"); !strings.Contains(out, "not installed (scheduler: cron)") {
		t.Errorf("status after remove:\n%s", out)
	}
}

func TestScheduleSystemdReplacesCron(t *testing.T) {
	env, _ := desk(t)
	bin, state := fakeSchedulers(t, true)
	env["PATH"] = bin
	exe := filepath.Join(t.TempDir(), "memhook")
	os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755)
	// An entry left by an earlier cron install.
	os.WriteFile(filepath.Join(state, "crontab"), []byte("1 2 * * * other\n0 7 * * * /old/memhook rollup >/dev/null # cerebro-rollup\n"), 0o644)
	if _, errOut, code := runExe(t, env, exe, "schedule", "install"); code != 0 {
		t.Fatalf("install: %s", errOut)
	}
	timer := filepath.Join(env["XDG_CONFIG_HOME"], "systemd", "user", "cerebro-rollup.timer")
	// The night's time by default, 04:00, as the seed runs it.
	if data, err := os.ReadFile(timer); err != nil || !strings.Contains(string(data), "OnCalendar=*-*-* 04:00:00") {
		t.Fatalf("timer: %v %s", err, data)
	}
	if tab, _ := os.ReadFile(filepath.Join(state, "crontab")); string(tab) != "1 2 * * * other\n" {
		t.Errorf("the old cron entry stayed: %q", tab)
	}
	out, _, _ := runExe(t, env, exe, "schedule", "status")
	if !strings.Contains(out, "installed: systemd, daily at 04:00") || strings.Contains(out, "cron") {
		t.Errorf("status:\n%s", out)
	}
	if out, _, _ := runExe(t, env, exe, "doctor"); !strings.Contains(out, "daily schedule: the night at 04:00 (night.time, default), installed at 04:00") {
		t.Errorf("doctor does not show the time in force:\n%s", out)
	}
	// One setting moves it; doctor shows the time in force and the one
	// waiting for an install.
	env["CEREBRO_NIGHT_TIME"] = "05:30"
	if out, _, _ := runExe(t, env, exe, "doctor"); !strings.Contains(out, "the installed entry runs at 04:00, night.time says 05:30") {
		t.Errorf("doctor does not show the waiting time:\n%s", out)
	}
	if _, errOut, code := runExe(t, env, exe, "schedule", "install"); code != 0 {
		t.Fatalf("install: %s", errOut)
	}
	if data, _ := os.ReadFile(timer); !strings.Contains(string(data), "OnCalendar=*-*-* 05:30:00") {
		t.Fatalf("night.time did not move the entry:\n%s", data)
	}
	runExe(t, env, exe, "schedule", "remove")
	if _, err := os.Stat(timer); err == nil {
		t.Error("the timer stayed after remove")
	}
}

func TestScheduleDryRunOtherOS(t *testing.T) {
	env, _ := desk(t)
	env["PATH"] = t.TempDir()
	exe := "/usr/local/bin/memhook"
	out, _, code := runExe(t, env, exe, "schedule", "install", "--dry-run", "--os", "darwin")
	if code != 0 || !strings.Contains(out, filepath.Join(env["HOME"], "Library", "LaunchAgents", "com.cerebro-mem.rollup.plist")) {
		t.Errorf("darwin plan:\n%s", out)
	}
	out, _, _ = runExe(t, env, exe, "schedule", "install", "--dry-run", "--os", "windows", "--at", "08:15")
	if !strings.Contains(out, "schtasks /Create /F /SC DAILY /ST 08:15 /TN cerebro-rollup") {
		t.Errorf("windows plan:\n%s", out)
	}
	if _, errOut, code := runExe(t, env, exe, "schedule", "install", "--os", "windows"); code != 2 || !strings.Contains(errOut, "--dry-run") {
		t.Errorf("--os without --dry-run: %s", errOut)
	}
	if _, errOut, code := runExe(t, env, "", "schedule", "install", "--dry-run"); code != 1 || !strings.Contains(errOut, "where memhook itself is") {
		t.Errorf("no executable: %s", errOut)
	}
}
