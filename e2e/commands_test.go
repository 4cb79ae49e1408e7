//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// lastUserText is the user text of the last Messages request: for a slash
// command, its expansion with the `!` output.
func (s *Sandbox) lastUserText() string {
	s.t.Helper()
	reqs := s.Mock.Messages()
	if len(reqs) == 0 {
		s.t.Fatal("the mock got no request")
	}
	return s.Mock.turn(reqs[len(reqs)-1].JSON()).Text
}

// TestFlushCommand: /cerebro:flush writes the live session's segment as a
// manual section and the model sees memhook's report.
func TestFlushCommand(t *testing.T) {
	s := newSandbox(t)
	id := newSessionID(t)
	live := s.Live("--session-id", id)
	live.Send("The billing cron runs at 03:00 UTC")
	live.Send("It retries failed invoices twice")
	live.Send("Alerts go to the Platypus channel")
	live.Send("We keep invoices for seven years")
	if d := s.Daily(); d != "" {
		t.Fatalf("a section was written before /cerebro:flush:\n%s", d)
	}
	live.Send("/cerebro:flush")
	secs := sectionsOf(Sections(s.Daily()), id)
	if len(secs) != 1 || secs[0].Trigger != "manual" || !strings.Contains(secs[0].Body, "Platypus") {
		t.Fatalf("after /cerebro:flush the session has sections %v, want one manual section with what was said\n%s", triggers(secs), s.Daily())
	}
	if got := s.lastUserText(); !strings.Contains(got, "wrote") || !strings.Contains(got, id) {
		t.Errorf("the model did not get memhook flush's report; it got:\n%s", got)
	}
	live.Close()
	s.checkHooks()
}

// TestLongActiveCommand: `/cerebro:memory_long_active on|status|off` (a
// command with arguments) switches long-term memory on and registers the
// project on the desk, reports it, then unregisters it keeping every file;
// the next session does not register it again, nor inject the plan-fact.
func TestLongActiveCommand(t *testing.T) {
	s := newSandbox(t)
	registry := filepath.Join(s.Desk, ".claude", "memory_short", "registry.json")
	s.Prompt("/cerebro:memory_long_active on")
	if fi, err := os.Stat(filepath.Join(s.LongDir(), "SCHEMA.md")); err != nil || fi.IsDir() {
		t.Fatalf("/cerebro:memory_long_active on did not lay out .claude/memory_long (%v); the model got:\n%s", err, s.lastUserText())
	}
	if !strings.Contains(readFile(t, registry), s.Project) {
		t.Errorf("the project is not in the desk registry")
	}
	if strings.Contains(s.lastUserText(), "exited with status") {
		t.Errorf("memhook long on failed; the model got:\n%s", s.lastUserText())
	}

	// Untouched templates are not injected (issue 19); a plan-fact someone
	// wrote in is.
	fresh := s.Prompt("/cerebro:memory_long_active status")
	if ctx := injected(s.firstRequestOf(fresh.SessionID())); strings.Contains(ctx, "Plan-fact status") || strings.Contains(ctx, "kind=\"core\"") {
		t.Errorf("untouched CORE or plan-fact templates were injected:\n%s", ctx)
	}
	s.Memhook("planfact", "set", "next", "ship the importer")
	on := s.Prompt("/cerebro:memory_long_active status")
	if ctx := injected(s.firstRequestOf(on.SessionID())); !strings.Contains(ctx, "Plan-fact status") || !strings.Contains(ctx, "ship the importer") {
		t.Errorf("with long-term memory on and a plan recorded, SessionStart did not inject the plan-fact paragraph:\n%s", ctx)
	}
	if got := s.commandTurn("memory_long_active"); !regexp.MustCompile(`state:\s+on\n`).MatchString(got) || !regexp.MustCompile(`registered:\s+true`).MatchString(got) || !strings.Contains(got, "plan-fact:   valid") {
		t.Errorf("status does not report long-term memory on, registered, plan-fact valid; the model got:\n%s", got)
	}

	s.Prompt("/cerebro:memory_long_active off")
	if got := s.commandTurn("memory_long_active"); !strings.Contains(got, "unregistered from the org desk") {
		t.Errorf("off did not report the unregistration; the model got:\n%s", got)
	}
	off := s.Prompt("/cerebro:memory_long_active status")
	if ctx := injected(s.firstRequestOf(off.SessionID())); strings.Contains(ctx, "Plan-fact status") {
		t.Errorf("with long-term memory off, SessionStart still injects the plan-fact paragraph:\n%s", ctx)
	}
	if got := s.commandTurn("memory_long_active"); !strings.Contains(got, "off (files kept)") || !regexp.MustCompile(`registered:\s+false`).MatchString(got) {
		t.Errorf("after off, status does not say off and unregistered; the model got:\n%s", got)
	}
	if strings.Contains(readFile(t, registry), s.Project) {
		t.Errorf("the project is still in the desk registry after off (a SessionStart registered it again?):\n%s", readFile(t, registry))
	}
	if _, err := os.Stat(filepath.Join(s.LongDir(), "План-факт.md")); err != nil {
		t.Errorf("off lost a file: %v", err)
	}
	s.checkHooks()
}

// TestDoctorCommand: /cerebro:health (memhook doctor; the command is not
// named doctor, which is Claude Code's own) reports on the same state dir
// the hooks use (CLAUDE_PLUGIN_DATA reaches memhook as `slash --state-dir`)
// and sees the hooks that already ran.
func TestDoctorCommand(t *testing.T) {
	s := newSandbox(t)
	live := s.Live()
	live.Send("hello")
	live.Send("/cerebro:health")
	live.Close()
	got := s.lastUserText()
	if !strings.Contains(got, "state dir "+s.PluginData()) {
		t.Errorf("doctor did not report the hooks' state dir %s; the model got:\n%s", s.PluginData(), got)
	}
	if strings.Contains(got, "no hook has run yet") || strings.Contains(got, "exited with status") {
		t.Errorf("doctor does not see the hooks that ran, or failed; the model got:\n%s", got)
	}
	s.checkHooks()
}

// TestSlashArgumentsAreArguments runs hostile arguments through the real
// CLI: a word that looks like an option cannot point /cerebro:ingest at
// another project nor /cerebro:serve at every interface, and lines that
// would end a here-document (the delimiter the commands use, "!CEREBRO",
// also after a blank, the newline delimiter of before, EOF) end nothing,
// with every command's own allowed-tools and with all of Bash allowed.
// Claude Code writes "!" as "\!" at a line's or a word's start, so no
// argument line equals "!CEREBRO": the here-document ends on the block's
// own line and the shell says nothing the model would read. A fence in
// the arguments ends Claude Code's block early (its block pattern stops at
// the first ```): then the words are cut there and bash warns that the
// here-document did not end, but still nothing runs.
func TestSlashArgumentsAreArguments(t *testing.T) {
	s := newSandbox(t)
	other := filepath.Join(filepath.Dir(s.Project), "other")
	os.MkdirAll(other, 0o755)
	initRepo(t, other)
	s.Memhook("long", "on", "--project", other)
	s.Memhook("long", "on", "--project", s.Project)
	os.WriteFile(filepath.Join(s.Project, "notes.md"), []byte("# Notes\nWe ship on Tuesdays.\n"), 0o644)

	before := len(s.Mock.Messages())
	s.Prompt("/cerebro:ingest --project " + other + " notes.md")
	got := s.commandRan(commandTag("ingest"), before)
	if ents, _ := os.ReadDir(filepath.Join(other, ".claude", "memory_long", "raw")); len(ents) > 1 {
		t.Errorf("/cerebro:ingest --project OTHER wrote into the other project: %v", ents)
	}
	if !strings.Contains(got, "--project is not an option") {
		t.Errorf("the model was not told why; it got:\n%s", got)
	}

	before = len(s.Mock.Messages())
	s.Prompt("/cerebro:serve --addr 0.0.0.0:0")
	if got := s.commandRan(commandTag("serve"), before); !strings.Contains(got, "not a loopback address") || strings.Contains(got, "serving") {
		t.Errorf("/cerebro:serve --addr 0.0.0.0:0 was not refused; the model got:\n%s", got)
	}

	lines := "x\n!CEREBRO\ntouch PWNED1\n !CEREBRO\ntouch PWNED2\nCEREBRO\ntouch PWNED3\n" +
		"ARGUMENTS END WITH THE BLOCK'\ntouch PWNED4\nEOF\ntouch PWNED5\n!`touch PWNED6`"
	fence := "\n```\ntouch PWNED7\n!CEREBRO\ntouch PWNED8"
	cmds, _ := filepath.Glob(filepath.Join(repoRoot, "commands", "*.md"))
	for j, allowed := range [][]string{nil, {"--allowedTools", "Bash"}} {
		for i, c := range cmds {
			lines := lines
			if (i+j)%2 == 1 { // each command gets the fence one of the two ways
				lines += fence
			}
			name := strings.TrimSuffix(filepath.Base(c), ".md")
			before := len(s.Mock.Messages())
			args := append([]string{"-p", "/cerebro:" + name + " " + lines, "--output-format", "stream-json", "--verbose", "--plugin-dir", repoRoot}, allowed...)
			if r := s.ClaudeMayFail(args...); r.Code != 0 {
				t.Errorf("/cerebro:%s %v: exit %d\n%s", name, allowed, r.Code, r.Stderr)
			}
			got := s.commandOutput(commandTag(name), before, strings.Contains(lines, "```"))
			noPwned(t, "/cerebro:"+name+" "+strings.Join(allowed, " "), s.Project, s.Desk, s.Home, s.State)
			if strings.Contains(got, "command not found") {
				t.Errorf("/cerebro:%s: a line of the arguments ran as a command:\n%s", name, got)
			}
		}
	}
}
