package cli

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/testfile"
	"github.com/spf13/cobra"
)

// TestBadInput runs every command with bad input — a missing or extra
// argument, an unknown flag, a --project that does not exist, a file that
// cannot be read — and wants exit 2 for a command line that cannot run
// (1 for a failure) with one "memhook: error:" line naming the problem (plus a hint line where the person can act), never a panic,
// a usage dump or a Go-internal message.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir) // commands default to the project around ".": keep it in the sandbox
	env := map[string]string{
		"HOME": dir, "XDG_CONFIG_HOME": filepath.Join(dir, "config"), "CEREBRO_HOME": filepath.Join(dir, "desk"),
		"CEREBRO_STATE_DIR": filepath.Join(dir, "state"), "PATH": filepath.Join(dir, "no-bin"),
	}
	for _, setup := range [][]string{{"org", "init"}, {"long", "on"}} {
		if _, errOut, code := run(t, env, "", setup...); code != 0 {
			t.Fatalf("%s: exit %d: %s", setup, code, errOut)
		}
	}
	testfile.Write(t, filepath.Join(dir, "a.md"), "# A\n")
	// Paths that do not exist, inside the sandbox: a command that creates
	// them instead of refusing is caught below.
	missingProject := filepath.Join(dir, "nonexistent", "project")
	missingFile := filepath.Join(dir, "nonexistent", "file.md")
	for _, tc := range []struct {
		args     []string
		want     string // in the error line
		wantHint bool
		exit     int // 2 for a command line that cannot run, 1 for a failure
	}{
		// A missing argument.
		{[]string{"compile", "done"}, "compile done: requires at least 1 arg(s)", true, 2},
		{[]string{"core", "add"}, "core add: accepts 1 arg(s), received 0", true, 2},
		{[]string{"core", "set"}, "core set: accepts 1 arg(s), received 0", true, 2},
		{[]string{"deny"}, "deny: accepts 1 arg(s), received 0", true, 2},
		{[]string{"fact", "add", "wiki/a.md"}, "fact add: accepts 2 arg(s), received 1", true, 2},
		{[]string{"get"}, "get: accepts 1 arg(s), received 0", true, 2},
		{[]string{"graph", "ask"}, "graph ask: requires at least 1 arg(s)", true, 2},
		{[]string{"graph", "link", "a"}, "graph link: accepts 2 arg(s), received 1", true, 2},
		{[]string{"hook"}, "hook: accepts 1 arg(s), received 0", true, 2},
		{[]string{"ingest"}, "ingest: accepts 1 arg(s), received 0", true, 2},
		{[]string{"org", "ingest"}, "org ingest: name one FILE or one --case PROJECT", true, 2},
		{[]string{"org", "query"}, "org query: no question", true, 2},
		{[]string{"org", "rm"}, "org rm: accepts 1 arg(s), received 0", true, 2},
		{[]string{"planfact", "set"}, "planfact set: requires at least 1 arg(s)", true, 2},
		{[]string{"recall"}, "the request has no text", false, 1},
		{[]string{"registry", "add"}, "registry add: accepts 1 arg(s), received 0", true, 2},
		{[]string{"registry", "remove"}, "registry remove: accepts 1 arg(s), received 0", true, 2},
		{[]string{"relearn"}, "relearn: --artifact, --summary and --about are all required", true, 2},
		{[]string{"remember"}, "the request has no text", false, 1},
		{[]string{"search"}, "search: requires at least 1 arg(s)", true, 2},
		{[]string{"skill", "diff"}, "skill diff: accepts 1 arg(s), received 0", true, 2},
		{[]string{"skill", "log"}, "skill log: accepts 1 arg(s), received 0", true, 2},
		{[]string{"skill", "revert"}, "skill revert: accepts 1 arg(s), received 0", true, 2},
		{[]string{"skill", "candidate"}, "skill candidate: accepts 1 arg(s), received 0", true, 2},
		{[]string{"verdict", "r1"}, "verdict: requires at least 2 arg(s), only received 1", true, 2},
		{[]string{"verdict", "r1", "fine"}, `verdict "fine": want good or bad`, true, 2},
		{[]string{"verdict", "r1", "good"}, `verdict: no run "r1" in this project's records`, true, 1},
		{[]string{"evolve", "shadow"}, "evolve shadow: accepts 1 arg(s), received 0", true, 2},
		{[]string{"evolve", "judge", "--pair", "p1", "--better", "1"}, `evolve judge: no unjudged pair "p1"`, true, 1},
		{[]string{"evolve", "log", "x"}, `evolve log: takes no arguments, got "x"`, true, 2},
		{[]string{"runs", "x"}, `runs: takes no arguments, got "x"`, true, 2},
		{[]string{"instruction", "reset"}, "instruction reset: no memory skill found", true, 1},
		{[]string{"instruction", "set-reference"}, "instruction set-reference: refused without a terminal", true, 1},
		{[]string{"truth", "hash"}, "truth hash: accepts 1 arg(s), received 0", true, 2},
		{[]string{"truth", "set"}, "truth set: accepts 1 arg(s), received 0", true, 2},
		{[]string{"wiki", "write"}, "wiki write: accepts 1 arg(s), received 0", true, 2},
		// A group without its sub-command, or with one that does not exist.
		{[]string{"compile"}, "compile: missing command (one of: done, list)", true, 2},
		{[]string{"core"}, "core: missing command (one of: add, review, set)", true, 2},
		{[]string{"fact"}, "fact: missing command (one of: add, merge)", true, 2},
		{[]string{"graph"}, "graph: missing command (one of: ask, link)", true, 2},
		{[]string{"long"}, "long: missing command (one of: diff, log, off, on, revert, status, sync)", true, 2},
		{[]string{"long", "of"}, `long: unknown command "of" (one of: diff, log, off, on, revert, status, sync)`, true, 2},
		{[]string{"org"}, "org: missing command (one of: ingest, init, lint, query, rm, sync)", true, 2},
		{[]string{"org", "serch"}, `org: unknown command "serch"`, true, 2},
		{[]string{"planfact"}, "planfact: missing command (one of: check, set)", true, 2},
		{[]string{"permissions"}, "permissions: missing command (one of: install, remove)", true, 2},
		{[]string{"registry"}, "registry: missing command (one of: add, list, remove, repair)", true, 2},
		{[]string{"schedule"}, "schedule: missing command (one of: install, remove, run, status)", true, 2},
		{[]string{"skill"}, "skill: missing command (one of: candidate, diff, log, revert)", true, 2},
		{[]string{"truth"}, "truth: missing command (one of: hash, set)", true, 2},
		{[]string{"wiki"}, "wiki: missing command (one of: graph, index, write)", true, 2},
		{[]string{"serch", "x"}, `unknown command "serch"`, true, 2}, // hint: did you mean `memhook search`?
		// An extra argument.
		{[]string{"compile", "list", "x1"}, `compile list: takes no arguments, got "x1"`, true, 2},
		{[]string{"config", "x1"}, `config: takes no arguments, got "x1"`, true, 2},
		{[]string{"core", "set", "a", "b"}, "core set: accepts 1 arg(s), received 2", true, 2},
		{[]string{"deny", "a", "b"}, "deny: accepts 1 arg(s), received 2", true, 2},
		{[]string{"doctor", "x1"}, `doctor: takes no arguments, got "x1"`, true, 2},
		{[]string{"commands", "install", "x1"}, `commands install: takes no arguments, got "x1"`, true, 2},
		{[]string{"commands", "remove", "x1"}, `commands remove: takes no arguments, got "x1"`, true, 2},
		{[]string{"commands", "status", "x1"}, `commands status: takes no arguments, got "x1"`, true, 2},
		{[]string{"permissions", "install", "x1"}, `permissions install: takes no arguments, got "x1"`, true, 2},
		{[]string{"permissions", "remove", "x1"}, `permissions remove: takes no arguments, got "x1"`, true, 2},
		{[]string{"permissions", "install", "--settings", dir}, "is not a regular file", true, 1},
		{[]string{"version", "x1"}, `version: takes no arguments, got "x1"`, true, 2},
		{[]string{"slash"}, "slash: name the memhook command to run", true, 2},
		{[]string{"fact", "add", "a", "b", "c"}, "fact add: accepts 2 arg(s), received 3", true, 2},
		{[]string{"flush", "x1"}, `flush: takes no arguments, got "x1"`, true, 2},
		{[]string{"import", "x1"}, `import: takes no arguments, got "x1"`, true, 2},
		{[]string{"get", "a", "b"}, "get: accepts 1 arg(s), received 2", true, 2},
		{[]string{"graph", "link", "a", "b", "c"}, "graph link: accepts 2 arg(s), received 3", true, 2},
		{[]string{"hook", "stop", "x1"}, "hook: accepts 1 arg(s), received 2", true, 2},
		{[]string{"index", "x1"}, `index: takes no arguments, got "x1"`, true, 2},
		{[]string{"mcp", "x1"}, `mcp: takes no arguments, got "x1"`, true, 2},
		{[]string{"ingest", "a", "b"}, "ingest: accepts 1 arg(s), received 2", true, 2},
		{[]string{"lint", "x1"}, `lint: takes no arguments, got "x1"`, true, 2},
		{[]string{"long", "off", "x1"}, `long off: takes no arguments, got "x1"`, true, 2},
		{[]string{"long", "on", "x1"}, `long on: takes no arguments, got "x1"`, true, 2},
		{[]string{"long", "status", "x1"}, `long status: takes no arguments, got "x1"`, true, 2},
		{[]string{"org", "ingest", "a", "b"}, "org ingest: accepts at most 1 arg(s), received 2", true, 2},
		{[]string{"org", "init", "x1"}, `org init: takes no arguments, got "x1"`, true, 2},
		{[]string{"org", "lint", "x1"}, `org lint: takes no arguments, got "x1"`, true, 2},
		{[]string{"org", "rm", "a", "b"}, "org rm: accepts 1 arg(s), received 2", true, 2},
		{[]string{"planfact", "check", "x1"}, `planfact check: takes no arguments, got "x1"`, true, 2},
		{[]string{"register", "a", "b"}, "register: accepts at most 1 arg(s), received 2", true, 2},
		{[]string{"registry", "add", "a", "b"}, "registry add: accepts 1 arg(s), received 2", true, 2},
		{[]string{"registry", "list", "x1"}, `registry list: takes no arguments, got "x1"`, true, 2},
		{[]string{"registry", "remove", "a", "b"}, "registry remove: accepts 1 arg(s), received 2", true, 2},
		{[]string{"registry", "repair", "x1"}, `registry repair: takes no arguments, got "x1"`, true, 2},
		{[]string{"relearn", "x1"}, `relearn: takes no arguments, got "x1"`, true, 2},
		{[]string{"rollup", "x1"}, `rollup: takes no arguments, got "x1"`, true, 2},
		{[]string{"rollup-days", "x1"}, `rollup-days: takes no arguments, got "x1"`, true, 2},
		{[]string{"schedule", "install", "x1"}, `schedule install: takes no arguments, got "x1"`, true, 2},
		{[]string{"schedule", "remove", "x1"}, `schedule remove: takes no arguments, got "x1"`, true, 2},
		{[]string{"schedule", "status", "x1"}, `schedule status: takes no arguments, got "x1"`, true, 2},
		{[]string{"serve", "x1"}, `serve: takes no arguments, got "x1"`, true, 2},
		{[]string{"forget"}, "forget: accepts 1 arg(s), received 0", true, 2},
		{[]string{"lessons", "allow", "git push"}, "lessons: want no argument, or pin|unpin|rm KEY", true, 2},
		{[]string{"lessons", "pin", "a", "b"}, "lessons: accepts at most 2 arg(s), received 3", true, 2},
		{[]string{"forget", "/etc/passwd"}, "forget: /etc/passwd is outside the project's memory roots", true, 1},
		{[]string{"serve", "--addr", "3700"}, `serve: --addr "3700": want host:port`, true, 2},
		{[]string{"schedule", "run", "x1"}, `schedule run: takes no arguments, got "x1"`, true, 2},
		{[]string{"night", "x1"}, `night: takes no arguments, got "x1"`, true, 2},
		{[]string{"long", "log", "a", "b"}, "long log: accepts at most 1 arg(s), received 2", true, 2},
		{[]string{"long", "diff", "a", "b"}, "long diff: accepts at most 1 arg(s), received 2", true, 2},
		{[]string{"long", "revert"}, "long revert: accepts 1 arg(s), received 0", true, 2},
		{[]string{"fact", "merge", "a.md"}, "fact merge: --from OTHER is required", true, 2},
		{[]string{"fact", "merge", "wiki/a.md", "--from", "wiki/b.md"}, "fact merge: refused without a terminal", true, 1},
		{[]string{"night", "forget"}, "night forget: accepts 1 arg(s), received 0", true, 2},
		{[]string{"night", "forget", "yesterday"}, `night forget: "yesterday" is not a day YYYY-MM-DD`, true, 2},
		{[]string{"night", "forget", "2026-01-01", "--project", missingProject}, missingProject, true, 1},
		{[]string{"core", "review", "x1"}, `core review: takes no arguments, got "x1"`, true, 2},
		{[]string{"core", "review", "--apply", "nosuchid"}, "no CORE proposal with that id: nosuchid", true, 1},
		{[]string{"core", "review", "--project", missingProject}, missingProject, true, 1},
		{[]string{"long", "sync"}, "long sync: long.remote is not set", true, 1},
		{[]string{"long", "sync", "--project", missingProject}, missingProject, true, 1},
		{[]string{"long", "sync", "--all", "--project", "."}, "long sync: --all and --project exclude each other", true, 2},
		{[]string{"org", "sync"}, "org sync: org.remote is not set", true, 1},
		{[]string{"org", "sync", "--home", missingProject}, missingProject, true, 1},
		{[]string{"skill", "log", "a", "b"}, "skill log: accepts 1 arg(s), received 2", true, 2},
		{[]string{"tables", "x1"}, `tables: takes no arguments, got "x1"`, true, 2},
		{[]string{"tables", "repair", "x1"}, `tables repair: takes no arguments, got "x1"`, true, 2},
		{[]string{"truth", "hash", "a", "b"}, "truth hash: accepts 1 arg(s), received 2", true, 2},
		{[]string{"wiki", "graph", "x1"}, `wiki graph: takes no arguments, got "x1"`, true, 2},
		{[]string{"wiki", "index", "x1"}, `wiki index: takes no arguments, got "x1"`, true, 2},
		{[]string{"wiki", "write", "a", "b"}, "wiki write: accepts 1 arg(s), received 2", true, 2},
		// An unknown flag.
		{[]string{"search", "--limt", "3", "q"}, "search: unknown flag --limt", true, 2},
		{[]string{"--bogus"}, "memhook: error: unknown flag --bogus", true, 2}, // "memhook: " once
		{[]string{"search", "--since", "yesterday", "q"}, `search: --since "yesterday": want a day YYYY-MM-DD`, true, 2},
		{[]string{"search", "--since", "2026-02-01", "--until", "2026-01-01", "q"}, "search: --until 2026-01-01 is before --since 2026-02-01", true, 2},
		// A flag value out of its set.
		{[]string{"flush", "--trigger", "bogus"}, `flush: --trigger "bogus": want auto,`, true, 2},
		{[]string{"import", "--since", "yesterday"}, `import: --since "yesterday": want a date YYYY-MM-DD`, true, 2},
		{[]string{"import", "--distiller", "claud"}, `import: --distiller "claud": want extractive or claude`, true, 2},
		{[]string{"long", "on", "--projcet", "."}, "long on: unknown flag --projcet", true, 2},
		// A --project that does not exist.
		{[]string{"compile", "done", "2026-11-01", "--project", missingProject}, missingProject, true, 1},
		{[]string{"compile", "list", "--project", missingProject}, missingProject, true, 1},
		{[]string{"config", "--project", missingProject}, missingProject, true, 1},
		{[]string{"core", "add", "x", "--project", missingProject}, missingProject, true, 1},
		{[]string{"core", "set", "x", "--project", missingProject}, missingProject, true, 1},
		{[]string{"deny", "i-1", "--reason", "r", "--project", missingProject}, missingProject, true, 1},
		{[]string{"doctor", "--project", missingProject}, "", false, 1}, // a report: checked below
		{[]string{"fact", "add", "wiki/a.md", "t", "--evidence", "daily/2026-11-01", "--project", missingProject}, missingProject, true, 1},
		{[]string{"flush", "--project", missingProject}, missingProject, true, 1},
		{[]string{"import", "--project", missingProject}, missingProject, true, 1},
		{[]string{"get", "x.md", "--project", missingProject}, missingProject, true, 1},
		{[]string{"mcp", "--project", missingProject}, missingProject, true, 1},
		{[]string{"graph", "ask", "q", "--project", missingProject}, missingProject, true, 1},
		{[]string{"graph", "link", "a", "b", "--project", missingProject}, missingProject, true, 1},
		{[]string{"index", "--project", missingProject}, missingProject, true, 1},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--project", missingProject}, missingProject, true, 1},
		{[]string{"forget", "daily/x.md", "--project", missingProject}, missingProject, true, 1},
		{[]string{"lessons", "--project", missingProject}, missingProject, true, 1},
		{[]string{"ingest", "notes.md", "--project", missingProject}, missingProject, true, 1},
		{[]string{"lint", "--project", missingProject}, missingProject, true, 1},
		{[]string{"long", "off", "--project", missingProject}, missingProject, true, 1},
		{[]string{"long", "on", "--project", missingProject}, missingProject, true, 1},
		{[]string{"long", "status", "--project", missingProject}, missingProject, true, 1},
		{[]string{"long", "log", "--project", missingProject}, missingProject, true, 1},
		{[]string{"long", "diff", "--project", missingProject}, missingProject, true, 1},
		{[]string{"long", "revert", "wiki/a.md", "--project", missingProject}, missingProject, true, 1},
		{[]string{"fact", "merge", "wiki/a.md", "--from", "wiki/b.md", "--project", missingProject}, missingProject, true, 1},
		{[]string{"night", "--project", missingProject}, missingProject, true, 1},
		{[]string{"planfact", "check", "--project", missingProject}, missingProject, true, 1},
		{[]string{"planfact", "set", "status", "active", "--project", missingProject}, missingProject, true, 1},
		{[]string{"recall", "q", "--project", missingProject}, missingProject, true, 1},
		{[]string{"relearn", "--artifact", "a.md", "--summary", "s", "--about", "e", "--project", missingProject}, missingProject, true, 1},
		{[]string{"remember", "t", "--project", missingProject}, missingProject, true, 1},
		{[]string{"rollup-days", "--project", missingProject}, missingProject, true, 1},
		{[]string{"search", "q", "--project", missingProject}, missingProject, true, 1},
		{[]string{"skill", "diff", "s", "--project", missingProject}, missingProject, true, 1},
		{[]string{"skill", "log", "s", "--project", missingProject}, missingProject, true, 1},
		{[]string{"skill", "revert", "s", "--project", missingProject}, missingProject, true, 1},
		{[]string{"tables", "--project", missingProject}, missingProject, true, 1},
		{[]string{"tables", "repair", "--project", missingProject}, missingProject, true, 1},
		{[]string{"skill", "candidate", "s", "--from", "f", "--project", missingProject}, missingProject, true, 1},
		{[]string{"verdict", "r1", "good", "--project", missingProject}, missingProject, true, 1},
		{[]string{"runs", "--project", missingProject}, missingProject, true, 1},
		{[]string{"evolve", "--project", missingProject}, missingProject, true, 1},
		{[]string{"evolve", "judge", "--project", missingProject}, missingProject, true, 1},
		{[]string{"evolve", "log", "--project", missingProject}, missingProject, true, 1},
		{[]string{"evolve", "shadow", "r1", "--project", missingProject}, missingProject, true, 1},
		{[]string{"instruction", "reset", "--project", missingProject}, missingProject, true, 1},
		{[]string{"instruction", "set-reference", "--project", missingProject}, missingProject, true, 1},
		{[]string{"skill", "candidate", "s", "--from", missingFile, "--skills-dir", dir}, "not found", true, 1},

		{[]string{"truth", "hash", "wiki/a.md", "--project", missingProject}, missingProject, true, 1},
		{[]string{"truth", "set", "wiki/a.md", "--from", "-", "--expect-hash", "h", "--project", missingProject}, missingProject, true, 1},
		{[]string{"wiki", "graph", "--project", missingProject}, missingProject, true, 1},
		{[]string{"wiki", "index", "--project", missingProject}, missingProject, true, 1},
		{[]string{"wiki", "write", "wiki/a.md", "--project", missingProject}, missingProject, true, 1},
		// A file that cannot be read.
		{[]string{"ingest", missingFile}, missingFile, true, 1},
		{[]string{"ingest", dir}, "is a directory", true, 1},
		{[]string{"org", "ingest", missingFile}, missingFile, false, 1},
		{[]string{"org", "ingest", dir}, "is a directory", false, 1},
		{[]string{"wiki", "write", "wiki/a.md", "--from", missingFile}, missingFile, false, 1},
		{[]string{"truth", "set", "wiki/a.md", "--from", missingFile, "--expect-hash", "h"}, missingFile, false, 1},
		{[]string{"relearn", "--artifact", missingFile, "--summary", "s", "--about", "e"}, missingFile, false, 1},
		{[]string{"register", missingProject}, missingProject, true, 1},
		{[]string{"registry", "add", missingProject}, missingProject, true, 1},
		{[]string{"rollup", "--home", missingProject}, missingProject, true, 1},
		{[]string{"get", missingFile}, missingFile, false, 1},
	} {
		name := strings.Join(tc.args, " ")
		out, errOut, code := run(t, env, "", tc.args...)
		if code != tc.exit {
			t.Errorf("memhook %s: exit %d, want %d\nstdout: %.200s\nstderr: %s", name, code, tc.exit, out, errOut)
			continue
		}
		lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
		if tc.args[0] == "doctor" && tc.want == "" {
			// doctor reports on stdout; a project it cannot find is broken.
			if !strings.Contains(out, "broken") || !strings.Contains(out, missingProject) {
				t.Errorf("memhook %s: report does not name the missing project:\n%s", name, out)
			}
			continue
		}
		if !strings.HasPrefix(lines[0], "memhook: error: ") || !strings.Contains(lines[0], tc.want) {
			t.Errorf("memhook %s: error line %q, want one naming %q", name, lines[0], tc.want)
		}
		switch {
		case len(lines) > 2:
			t.Errorf("memhook %s: %d lines on stderr, want the error and at most a hint:\n%s", name, len(lines), errOut)
		case len(lines) == 2 && !strings.HasPrefix(lines[1], "memhook: hint: "):
			t.Errorf("memhook %s: second stderr line is not a hint: %q", name, lines[1])
		case tc.wantHint && len(lines) < 2:
			t.Errorf("memhook %s: no hint line:\n%s", name, errOut)
		}
		for _, internal := range []string{"panic", "goroutine", "runtime error", "%!", "<nil>", "Usage:"} {
			if strings.Contains(errOut+out, internal) {
				t.Errorf("memhook %s: output shows %q:\nstdout: %s\nstderr: %s", name, internal, out, errOut)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "nonexistent")); err == nil {
		t.Error("a command given a path that does not exist created it")
	}
}

// TestBadInputCoversEveryCommand keeps TestBadInput honest as commands
// are added: every command (but hook's events, which fail open by design)
// must appear in its table, and so must every --project flag.
func TestBadInputCoversEveryCommand(t *testing.T) {
	table := testfile.Read(t, "bad_input_test.go")
	var missing []string
	leaves := 0
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.Name() == "help" {
				continue
			}
			walk(sub)
		}
		if !c.HasParent() || c.HasSubCommands() {
			return
		}
		leaves++
		quoted := `[]string{"` + strings.ReplaceAll(strings.TrimPrefix(c.CommandPath(), "memhook "), " ", `", "`) + `"`
		if !strings.Contains(table, quoted) {
			missing = append(missing, c.CommandPath())
		}
		if c.Flags().Lookup("project") != nil && !strings.Contains(table, quoted) {
			return
		}
		if c.Flags().Lookup("project") != nil && !hasProjectCase(table, quoted) {
			missing = append(missing, c.CommandPath()+" --project")
		}
	}
	walk(newRootCmd(&factory.Factory{}))
	if leaves < 40 {
		t.Fatalf("found %d commands; the walk is broken", leaves)
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("TestBadInput has no case for:\n  %s", strings.Join(missing, "\n  "))
	}
}

func hasProjectCase(table, quoted string) bool {
	for _, line := range strings.Split(table, "\n") {
		if strings.Contains(line, quoted) && strings.Contains(line, `"--project", missingProject`) {
			return true
		}
	}
	return false
}
