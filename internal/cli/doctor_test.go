package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/factory"
)

// doctorOn runs doctor as a terminal would: no CLAUDE_PLUGIN_DATA, the
// given HOME and PATH, in dir.
func doctorOn(t *testing.T, env map[string]string, dir string) string {
	t.Helper()
	var out, errb bytes.Buffer
	sys := factory.System{
		In: strings.NewReader(""), Out: &out, Err: &errb,
		Getenv: func(k string) string { return env[k] },
		Now:    time.Now,
	}
	Main([]string{"doctor", "--project", dir}, sys)
	return out.String() + errb.String()
}

// On a fresh HOME, doctor says of every path what is true: nothing is
// reported ok that does not exist, what memhook creates on first use says
// so, and doctor itself creates nothing.
func TestDoctorOnAFreshHomeTellsTheTruth(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(t.TempDir(), "proj")
	os.MkdirAll(filepath.Join(proj, ".git"), 0o755)
	env := map[string]string{"HOME": home, "PATH": t.TempDir()}
	out := doctorOn(t, env, proj)
	state := filepath.Join(home, ".claude", "plugins", "data", "cerebro-cerebro")
	desk := filepath.Join(home, "cerebro")
	for _, want := range []string{
		"short-term memory " + filepath.Join(proj, ".claude", "memory_short", "daily") + ": will be created on first use",
		"long-term memory: off",
		"state dir " + state + ": will be created on first use (chosen by the default",
		"cerebro home (desk) " + desk + ": will be created on first use",
		"desk daily folder " + filepath.Join(desk, ".claude", "memory_short", "daily") + ": will be created on first use",
		"registry " + filepath.Join(desk, ".claude", "memory_short", "registry.json") + ": will be created on first use",
		"org vault " + desk + ": will be created on first use",
		"memhook on PATH: missing",
		"short commands in " + filepath.Join(home, ".claude", "commands") + ": missing",
		"no hook has run yet",
		"no session waiting for a flush",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor on a fresh HOME lacks %q:\n%s", want, out)
		}
	}
	if regexp.MustCompile(`(?m)^ok\s+.*\(\d+ projects\)`).MatchString(out) || strings.Contains(out, "(1 projects)") {
		t.Errorf("doctor claims a registry that does not exist:\n%s", out)
	}
	for _, p := range []string{state, desk, filepath.Join(home, ".claude", "commands"), filepath.Join(proj, ".claude")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("doctor created %s", p)
		}
	}

	// Once things exist, doctor says ok, names the other state dir found
	// and never reads it.
	os.MkdirAll(filepath.Join(state, "logs"), 0o755)
	inline := filepath.Join(home, ".claude", "plugins", "data", "cerebro-inline")
	os.MkdirAll(filepath.Join(inline, "logs"), 0o755)
	os.WriteFile(filepath.Join(inline, "logs", "hooks.log"), []byte(""), 0o644)
	if _, _, code := run(t, map[string]string{"HOME": home}, "", "org", "init"); code != 0 {
		t.Fatal("org init failed")
	}
	bin := t.TempDir()
	os.WriteFile(filepath.Join(bin, "memhook"), []byte("#!/bin/sh\n"), 0o755)
	env["PATH"] = bin
	out = doctorOn(t, env, proj)
	for _, want := range []string{
		"state dir " + state + ": ok (chosen by the default",
		"other state dir " + inline + ", last used",
		"org vault " + desk + ": ok",
		"memhook on PATH: " + filepath.Join(bin, "memhook"),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor lacks %q:\n%s", want, out)
		}
	}
	env["CEREBRO_STATE_DIR"] = inline
	if out = doctorOn(t, env, proj); !strings.Contains(out, "state dir "+inline+": ok (chosen by CEREBRO_STATE_DIR)") || !strings.Contains(out, "other state dir "+state) {
		t.Errorf("with CEREBRO_STATE_DIR, doctor does not use and explain it:\n%s", out)
	}
}

// TestDoctorWarnsWhatStopsMemoryNotWhatEveryNewProjectIs: without the
// claude CLI and without the plugin installed, doctor warns of both with
// the command that installs Claude Code; a project whose long-term memory
// was just switched on gets no warning about a night pass that cannot have
// run yet, and a first hook that has not run yet is information too.
func TestDoctorWarnsWhatStopsMemoryNotWhatEveryNewProjectIs(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(t.TempDir(), "proj")
	os.MkdirAll(filepath.Join(proj, ".git"), 0o755)
	env := map[string]string{"HOME": home, "PATH": t.TempDir(), "CEREBRO_HOME": filepath.Join(home, "desk")}
	if _, errOut, code := run(t, env, "", "long", "on", "--project", proj); code != 0 {
		t.Fatalf("long on: %s", errOut)
	}
	out := doctorOn(t, env, proj)
	for _, want := range []string{
		"warn  claude CLI on PATH: missing",
		"hint: install Claude Code: npm install -g @anthropic-ai/claude-code",
		"warn  plugin: not installed in Claude Code, so no hook runs and nothing is remembered",
		"it needs the claude CLI on PATH; without it: npm install -g @anthropic-ai/claude-code",
		"ok    night pass: none yet",
		"ok    no hook has run yet",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "warn  no night") || regexp.MustCompile(`(?m)^warn\s+.*night`).MatchString(out) {
		t.Errorf("doctor warns of a night pass a new project cannot have had:\n%s", out)
	}

	// With claude on PATH and the plugin installed, both are ok.
	bin := t.TempDir()
	os.WriteFile(filepath.Join(bin, "claude"), []byte("#!/bin/sh\n"), 0o755)
	env["PATH"] = bin
	plugins := filepath.Join(home, ".claude", "plugins")
	os.MkdirAll(plugins, 0o755)
	os.WriteFile(filepath.Join(plugins, "installed_plugins.json"), []byte(`{"version":2,"plugins":{"cerebro@cerebro":[{"installPath":"/cache/cerebro"}]}}`), 0o644)
	os.WriteFile(filepath.Join(plugins, "known_marketplaces.json"), []byte(`{"cerebro":{"source":{"source":"directory","path":"/src/cerebro"}}}`), 0o644)
	out = doctorOn(t, env, proj)
	for _, want := range []string{"ok    claude CLI on PATH: " + filepath.Join(bin, "claude"), "ok    plugin cerebro@cerebro runs from /src/cerebro"} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "not installed") {
		t.Errorf("doctor says an installed plugin is not:\n%s", out)
	}
}
