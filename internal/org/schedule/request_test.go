package schedule

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/config"
)

// An install is planned from the user's entry, memhook's real path and
// the time of day, and each missing piece is an error the front end can
// tell apart; a removal needs none of the install's pieces.
func TestPrepareNamesWhatIsMissing(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{"HOME": home, "PATH": "", "XDG_CONFIG_HOME": filepath.Join(home, ".config")}
	get := func(k string) string { return env[k] }
	exe := filepath.Join(home, "bin", "memhook")
	if err := os.MkdirAll(filepath.Dir(exe), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	req := Request{Install: true, GOOS: "darwin", Getenv: get, Executable: exe, Settings: config.Load(get, ""), Home: "/desk", DryRun: true}

	c, err := Prepare(req)
	if err != nil {
		t.Fatal(err)
	}
	realExe, _ := filepath.EvalSymlinks(exe)
	if d := c.Plan.Describe(); !strings.Contains(d, realExe) || !strings.Contains(d, "/desk") || !strings.Contains(c.Done, "daily at 04:00") {
		t.Errorf("install at the night's default time:\n%s\n%s", d, c.Done)
	}
	at := req
	at.At = "07:30"
	if c, err := Prepare(at); err != nil || !strings.Contains(c.Done, "daily at 07:30") {
		t.Errorf("--at 07:30: %q %v", c.Done, err)
	}

	for name, tc := range map[string]struct {
		edit func(*Request)
		want error
	}{
		"no home":       {func(r *Request) { r.Getenv = func(string) string { return "" } }, ErrNoHome},
		"no executable": {func(r *Request) { r.Executable = "" }, ErrNoExecutable},
		"bad clock":     {func(r *Request) { r.At = "7h" }, ErrBadClock},
	} {
		r := req
		tc.edit(&r)
		if _, err := Prepare(r); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", name, err, tc.want)
		}
	}

	rm := Request{GOOS: "darwin", Getenv: get, DryRun: true}
	c, err = Prepare(rm)
	if err != nil || c.Done != "removed the daily entry" || len(c.Plan.Steps) == 0 {
		t.Errorf("remove: %+v %v", c, err)
	}
}

// The daily run goes through every job in order with the desk passed on;
// a failing job is reported and the ones after it still run.
func TestRunJobsGoesOnAfterAFailure(t *testing.T) {
	var ran [][]string
	var failed []string
	err := RunJobs("/desk", func(args []string) error {
		ran = append(ran, args)
		if args[0] == "night" {
			return errors.New("the provider failed")
		}
		return nil
	}, func(j Job, err error) { failed = append(failed, j.Name+": "+err.Error()) })
	if !errors.Is(err, ErrJobsFailed) {
		t.Fatalf("RunJobs = %v, want ErrJobsFailed", err)
	}
	if len(ran) != len(Jobs) {
		t.Fatalf("ran %d of %d jobs: %v", len(ran), len(Jobs), ran)
	}
	for i, j := range Jobs {
		if want := append(append([]string{}, j.Args...), "--home", "/desk"); !reflect.DeepEqual(ran[i], want) {
			t.Errorf("job %d ran %v, want %v", i, ran[i], want)
		}
	}
	if !reflect.DeepEqual(failed, []string{"night: the provider failed"}) {
		t.Errorf("reported %v", failed)
	}

	ran = nil
	if err := RunJobs("", func(args []string) error { ran = append(ran, args); return nil }, func(Job, error) { t.Error("a job failed") }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ran[0], Jobs[0].Args) {
		t.Errorf("without a desk: %v, want %v", ran[0], Jobs[0].Args)
	}
}
