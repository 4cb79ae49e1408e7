package hook

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// stepClock advances a minute each time it is read.
func stepClock(from time.Time) func() time.Time {
	t := from
	return func() time.Time { t = t.Add(time.Minute); return t }
}

func TestClockRunsFromTheTimeNowEnvNames(t *testing.T) {
	real := time.Date(2030, 5, 1, 8, 0, 0, 0, time.UTC)
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }

	now, err := Clock(getenv, stepClock(real))
	if err != nil || !now().Equal(real.Add(time.Minute)) {
		t.Fatalf("unset: the real clock is not used (%v)", err)
	}

	env[NowEnv] = "2026-11-23T09:30:00+01:00"
	now, err = Clock(getenv, stepClock(real))
	if err != nil {
		t.Fatal(err)
	}
	want := time.Date(2026, 11, 23, 8, 30, 0, 0, time.UTC)
	// Clock read the base once; each read after it adds the real time elapsed.
	if a, b := now(), now(); !a.Equal(want.Add(time.Minute)) || !b.Equal(want.Add(2*time.Minute)) {
		t.Fatalf("RFC 3339: %v then %v, want %v + 1 and 2 minutes", a, b, want)
	}

	env[NowEnv] = "2026-11-24T14:05"
	now, _ = Clock(getenv, stepClock(real))
	if got := now(); got.Location() != time.Local || got.Format("2006-01-02 15:04") != "2026-11-24 14:06" {
		t.Fatalf("local minute: %v", got)
	}

	env[NowEnv] = "2026-11-25"
	now, _ = Clock(getenv, stepClock(real))
	if got := now(); got.Format("2006-01-02 15:04") != "2026-11-25 12:01" {
		t.Fatalf("a date is its noon: %v", got)
	}

	env[NowEnv] = "next tuesday"
	now, err = Clock(getenv, stepClock(real))
	if err == nil || !strings.Contains(err.Error(), NowEnv) || !strings.Contains(err.Error(), "real clock") {
		t.Fatalf("a bad value is not reported: %v", err)
	}
	if !now().Equal(real.Add(time.Minute)) {
		t.Fatal("a bad value does not fall back to the real clock")
	}
}

func TestRunLogsABadClock(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	os.MkdirAll(filepath.Join(proj, ".git"), 0o755)
	env := map[string]string{"HOME": dir, "CEREBRO_STATE_DIR": filepath.Join(dir, "state"), "CEREBRO_CONFIG": filepath.Join(dir, "none.toml"), NowEnv: "soon"}
	in := `{"session_id":"s1","cwd":"` + proj + `","hook_event_name":"Stop"}`
	_, out, entries := runOnce(t, env, in, func(ctx context.Context, c *Call) ([]byte, error) { return []byte(`{}`), nil })
	if out != `{}` || len(entries) != 2 || entries[0].Level != "warn" || !strings.Contains(entries[0].Message, NowEnv) {
		t.Fatalf("%q %+v", out, entries)
	}
}

// TestOnlyTheFrameReadsTheClockVariable: no package under internal/ but
// this one names CEREBRO_NOW, so no domain package reads the clock behind
// its caller's back (the benchmarks set it for the processes they start).
func TestOnlyTheFrameReadsTheClockVariable(t *testing.T) {
	root := ".."
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		if filepath.Dir(p) == filepath.Join(root, "hook") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.Contains(string(data), `"CEREBRO_NOW"`) {
			t.Errorf("%s names CEREBRO_NOW: take the clock from the caller", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
