package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// run invokes Main as a process would and returns stdout, stderr and the
// exit code.
func run(t *testing.T, env map[string]string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	sys := factory.System{
		In: strings.NewReader(stdin), Out: &out, Err: &errb,
		Getenv: func(k string) string { return env[k] },
		Now:    func() time.Time { return time.Date(2026, 11, 30, 10, 0, 0, 0, time.Local) },
	}
	code := Main(args, sys)
	return out.String(), errb.String(), code
}

// testFactory is the factory Main builds on env, with run()'s clock and
// the same write roots, for a test that calls a run function without
// cobra; out collects what it prints on stdout and stderr.
func testFactory(env map[string]string) (f *factory.Factory, out *bytes.Buffer) {
	out = &bytes.Buffer{}
	f = factory.New(factory.System{
		In: strings.NewReader(""), Out: out, Err: out,
		Getenv: func(k string) string { return env[k] },
		Now:    func() time.Time { return time.Date(2026, 11, 30, 10, 0, 0, 0, time.Local) },
	})
	safefs.SetRoots(f.Paths.Home, f.Paths.State)
	return f, out
}

func TestConfigShowsSources(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"HOME": dir, "CEREBRO_SHORT_FLUSH_REPLIES": "7"}
	// through its run function (its command line: options_test.go)
	f, buf := testFactory(env)
	if err := configRun(&ConfigOptions{Out: f.Out, Err: f.Err, ProjectRoot: f.ProjectRoot, Config: f.Config, Paths: f.Paths, Project: dir}); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); !strings.Contains(out, "short.flush_replies") || !strings.Contains(out, "environment CEREBRO_SHORT_FLUSH_REPLIES") {
		t.Fatalf("output lacks the env source:\n%s", out)
	}
}

func TestErrorsPrintedOnceWithHint(t *testing.T) {
	dir := t.TempDir()
	// A broken config no longer fails a command (each key falls back to its
	// default, see docs/safety.md); a missing required flag still does.
	_, errOut, code := run(t, map[string]string{"HOME": dir, "CEREBRO_STATE_DIR": filepath.Join(dir, "state")}, "", "graph", "link", "a", "b", "--project", dir)
	if code != 2 {
		t.Fatalf("exit %d", code)
	}
	if strings.Count(errOut, "memhook: error:") != 1 || !strings.Contains(errOut, "memhook: hint:") {
		t.Fatalf("stderr:\n%s", errOut)
	}
}

// A hook's framework and its handler share one load of the configuration.
func TestConfigLoadedOncePerRoot(t *testing.T) {
	dir := t.TempDir()
	f := factory.New(factory.System{Getenv: func(k string) string {
		if k == "HOME" {
			return dir
		}
		return ""
	}})
	a := f.Config(dir)
	b := f.Config(dir)
	c := f.Config("")
	if a != b || a == c {
		t.Fatalf("Config(dir) twice gave %p and %p; Config(\"\") gave %p", a, b, c)
	}
}
