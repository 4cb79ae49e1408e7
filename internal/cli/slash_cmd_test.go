package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSplitWords(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"on\n", []string{"on"}},
		{"  notes.md  --redact ", []string{"notes.md", "--redact"}},
		{`"my file.md" 'it''s' a\ b`, []string{"my file.md", "its", "a b"}},
		{`; touch PWNED`, []string{";", "touch", "PWNED"}},
		{`$(touch PWNED) ` + "`touch PWNED`", []string{"$(touch", "PWNED)", "`touch", "PWNED`"}},
		{`\!important "say \"hi\""`, []string{"!important", `say "hi"`}},
		{"", nil},
	} {
		got, err := splitWords(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("splitWords(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if _, err := splitWords(`it's`); err == nil {
		t.Error("an unterminated quote was accepted")
	}
}

// The arguments reach memhook as words and nothing else: a shell
// metacharacter is part of a word (here a file name that does not exist),
// errors and the exit status come back on stdout with exit 0, and
// --state-dir chooses the state dir.
func TestSlashRunsTheCommandWithStdinWords(t *testing.T) {
	env, home := orgEnv(t)
	cwd := t.TempDir()
	t.Chdir(cwd)
	out, errOut, code := run(t, env, "$(touch PWNED); touch PWNED2\n", "slash", "org", "ingest")
	if code != 0 || !strings.Contains(out, "memhook: error:") || !strings.Contains(out, "(memhook exited with status 1)") || errOut != "" {
		t.Fatalf("exit %d, stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, f := range []string{"PWNED", "PWNED2"} {
		if _, err := os.Stat(filepath.Join(cwd, f)); err == nil {
			t.Errorf("%s was created", f)
		}
	}
	src := filepath.Join(t.TempDir(), "release notes.md")
	os.WriteFile(src, []byte("# Releases\nHow we ship.\n"), 0o644)
	out, _, code = run(t, env, `"`+src+`"`+"\n", "slash", "org", "ingest")
	if code != 0 || !strings.Contains(out, "created the org vault at "+home) || strings.Contains(out, "exited with status") {
		t.Fatalf("a quoted file name with a space: exit %d\n%s", code, out)
	}
	state := filepath.Join(t.TempDir(), "plugin-data")
	out, _, _ = run(t, env, "", "slash", "--state-dir", state, "doctor")
	if !strings.Contains(out, "state dir "+state) || !strings.Contains(out, "--state-dir") {
		t.Errorf("doctor through slash --state-dir does not report that state dir and why:\n%s", out)
	}
	out, _, code = run(t, env, "what's \\!new about releases?\n", "slash", "--text", "org", "query")
	if code != 0 || strings.Contains(out, "unterminated") || strings.Contains(out, "exited with status") {
		t.Errorf("--text did not pass the question whole: exit %d\n%s", code, out)
	}
}

// The here-document the commands use keeps every metacharacter away from
// a real shell: run the block as Claude Code would (after substituting
// $ARGUMENTS and writing "!" as "\!") with sh, against a stand-in memhook
// that prints its stdin.
func TestSlashBlockInARealShell(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	mh := filepath.Join(dir, "memhook")
	os.WriteFile(mh, []byte("#!/bin/sh\ncat\n"), 0o755)
	args := "; touch PWNED1 $(touch PWNED2) `touch PWNED3`\n\\!CEREBRO\ntouch PWNED4"
	script := "\"" + mh + "\" slash long <<'!CEREBRO'\n" + args + "\n!CEREBRO\n"
	cmd := exec.Command(sh, "-c", script)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if string(out) != args+"\n" {
		t.Errorf("memhook's stdin = %q, want the arguments verbatim %q", out, args+"\n")
	}
	for i := 1; i <= 4; i++ {
		if _, err := os.Stat(filepath.Join(dir, "PWNED"+string(rune('0'+i)))); err == nil {
			t.Errorf("PWNED%d was created", i)
		}
	}
}

func TestVersionCommand(t *testing.T) {
	out, _, code := run(t, nil, "", "version")
	if code != 0 || out != "memhook version "+Version+"\n" {
		t.Errorf("memhook version: exit %d %q", code, out)
	}
	out, _, _ = run(t, nil, "", "--help")
	if strings.Contains(out, "\n  hook ") || strings.Contains(out, "\n  slash ") {
		t.Errorf("internal commands listed in --help:\n%s", out)
	}
	out, _, _ = run(t, nil, "", "recall", "--help")
	if strings.Contains(out, "--json") {
		t.Errorf("recall --help shows the always-on --json flag:\n%s", out)
	}
}
