package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The arguments reach memhook as words and nothing else: a shell
// metacharacter is part of a word (here a file name that does not exist),
// errors and the exit status come back on stdout with exit 0, and
// --state-dir chooses the state dir.
func TestSlashRunsTheCommandWithStdinWords(t *testing.T) {
	env, home := orgEnv(t)
	cwd := t.TempDir()
	t.Chdir(cwd)
	out, errOut, code := run(t, env, "$(touch PWNED); touch PWNED2\n", "slash", "org", "ingest")
	if code != 0 || !strings.Contains(out, "memhook: error:") || !strings.Contains(out, "(memhook exited with status 2)") || errOut != "" {
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

// claudeCodeEscape is what Claude Code 2.1.332 does to an argument before
// it substitutes it into a command (uG in its bundle): a "!" beside a
// backquote gets a space, and a "!" at a line's or a word's start becomes
// "\!", so that no argument opens a `!` block of its own, nor equals a
// here-document delimiter that starts with "!".
func claudeCodeEscape(s string) string {
	s = strings.ReplaceAll(s, "`!", "` !")
	s = strings.ReplaceAll(s, "!`", "! `")
	return regexp.MustCompile(`(?m)(^|\s)!`).ReplaceAllString(s, `$1\!`)
}

// The here-document the commands use keeps every metacharacter away from
// a real shell: run the block as Claude Code does (after substituting
// $ARGUMENTS, escaped as Claude Code escapes it) with bash and zsh, against
// a stand-in memhook that prints its stdin, with arguments that hold every
// line a here-document could end on. The shell says nothing on stderr: the
// here-document ends on its delimiter, not at the end of the input (bash
// warns then, and Claude Code hands the warning to the model).
func TestSlashBlockInARealShell(t *testing.T) {
	args := "; touch PWNED1 $(touch PWNED2) `touch PWNED3`\n" + slashDelim + "\ntouch PWNED4\nCEREBRO\ntouch PWNED5\n" +
		" " + slashDelim + "\ntouch PWNED6\n!`touch PWNED7`\nEOF\n```\ntouch PWNED8"
	escaped := claudeCodeEscape(args)
	if strings.Contains("\n"+escaped+"\n", "\n"+slashDelim+"\n") {
		t.Fatalf("an escaped argument line still equals the delimiter:\n%s", escaped)
	}
	ran := 0
	for _, shell := range []string{"bash", "zsh"} {
		sh, err := exec.LookPath(shell)
		if err != nil {
			continue
		}
		ran++
		dir := t.TempDir()
		mh := filepath.Join(dir, "memhook")
		os.WriteFile(mh, []byte("#!/bin/sh\ncat\n"), 0o755)
		script := "\"" + mh + "\" slash long " + strings.Replace(slashHeredoc, "$ARGUMENTS", escaped, 1)
		// Claude Code's Bash tool hands the block to eval.
		cmd := exec.Command(sh, "-c", `eval "$1" < /dev/null`, "sh", script)
		cmd.Dir = dir
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v\n%s", shell, err, stderr.String())
		}
		if strings.TrimRight(stdout.String(), "\n") != escaped {
			t.Errorf("%s: memhook's stdin = %q, want the arguments verbatim %q", shell, stdout.String(), escaped)
		}
		if stderr.Len() > 0 {
			t.Errorf("%s: the shell said something the model would read:\n%s", shell, stderr.String())
		}
		for i := 1; i <= 8; i++ {
			if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("PWNED%d", i))); err == nil {
				t.Errorf("%s: PWNED%d was created", shell, i)
			}
		}
	}
	if ran == 0 {
		t.Skip("neither bash nor zsh here")
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

// TestSlashSaysAnErrorOnce: a command that prints its error in its JSON
// (recall with no text) is not told again on the slash command's one
// stream; a usage error's status is 2, as memhook's own.
func TestSlashSaysAnErrorOnce(t *testing.T) {
	h := newHookEnv(t)
	t.Chdir(h.proj)
	out, _, code := run(t, h.env, "\n", "slash", "recall")
	if code != 0 || strings.Count(out, "the request has no text") != 1 || !strings.Contains(out, `"error"`) || !strings.HasSuffix(out, "(memhook exited with status 1)\n") {
		t.Errorf("recall with no text: exit %d\n%s", code, out)
	}
	out, _, _ = run(t, h.env, "\n", "slash", "search")
	if !strings.HasSuffix(out, "(memhook exited with status 2)\n") || strings.Count(out, "memhook: error:") != 1 {
		t.Errorf("search with no words:\n%s", out)
	}
}
