//go:build e2e

package e2e

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/cli"
)

// injection is what every command that takes arguments receives: shell
// metacharacters that would create PWNED1..4 in the shell's directory if
// any reached a shell, including a line that tries to end the commands'
// here-document early.
const injection = "; touch PWNED1 $(touch PWNED2) `touch PWNED3`\n!CEREBRO\ntouch PWNED4"

// noPwned fails the test if any PWNED file exists under the dirs.
func noPwned(t *testing.T, what string, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		filepath.WalkDir(d, func(p string, e os.DirEntry, err error) error {
			if err == nil && strings.HasPrefix(e.Name(), "PWNED") {
				t.Errorf("%s: %s was created: an argument reached a shell", what, p)
				os.Remove(p) // so that the next command is judged on its own
			}
			return nil
		})
	}
}

// shellWarning is the first thing in a command's output that the shell,
// not memhook, said (bash's "here-document … delimited by end-of-file"
// when a here-document is not ended), or "".
func shellWarning(text string) string {
	return regexp.MustCompile(`(?m)^(\S*/)?(bash|zsh|sh): line \d+: .*|here-document.*end-of-file.*`).FindString(text)
}

// commandRan fails the test unless the command's `!` block ran under the
// command's own allowed-tools: Claude Code makes no request at all when a
// block is refused, and a block that ran is replaced by its output. The
// output holds nothing the shell said.
func (s *Sandbox) commandRan(tag string, before int) string {
	s.t.Helper()
	return s.commandOutput(tag, before, false)
}

// commandOutput is commandRan, where shellSays allows a message of the
// shell's own in the output.
func (s *Sandbox) commandOutput(tag string, before int, shellSays bool) string {
	s.t.Helper()
	reqs := s.Mock.Messages()
	for i := len(reqs) - 1; i >= before; i-- {
		if t := s.Mock.turn(reqs[i].JSON()); strings.Contains(t.Text, tag) {
			// From the command on: what Claude Code puts before it (a
			// <system-reminder> with the git status, since 2.1.2xx) is not
			// the command's.
			text := t.Text[strings.Index(t.Text, tag):]
			if strings.Contains(text, "<<'!CEREBRO'") {
				s.t.Errorf("%s: the block reached the model unexpanded:\n%s", tag, text)
			}
			if w := shellWarning(text); w != "" && !shellSays {
				s.t.Errorf("%s: the shell's own message reached the model (%q):\n%s", tag, w, text)
			}
			return text
		}
	}
	s.t.Errorf("%s made no model request: its `!` block was refused or failed", tag)
	return ""
}

// TestCommandArgumentsNeverReachAShell sends `;`, `$(…)`, a backquoted
// command and a line ending the here-document through every plugin
// command, once with only the commands' own allowed-tools (each block must
// still run: the rules allow exactly its invocation) and once for a user
// who allowed all of Bash (where only the quoting stands between the
// arguments and the shell), and finds no file created.
func TestCommandArgumentsNeverReachAShell(t *testing.T) {
	s := newSandbox(t)
	cmds, _ := filepath.Glob(filepath.Join(repoRoot, "commands", "*.md"))
	if len(cmds) < 12 {
		t.Fatalf("found %d commands", len(cmds))
	}
	for _, allowed := range [][]string{nil, {"--allowedTools", "Bash"}} {
		for _, c := range cmds {
			name := strings.TrimSuffix(filepath.Base(c), ".md")
			before := len(s.Mock.Messages())
			args := append([]string{"-p", "/cerebro:" + name + " " + injection, "--output-format", "stream-json", "--verbose", "--plugin-dir", repoRoot}, allowed...)
			r := s.ClaudeMayFail(args...)
			if r.Code != 0 {
				t.Errorf("/cerebro:%s %v: exit %d\n%s", name, allowed, r.Code, r.Stderr)
			}
			s.commandRan(commandTag(name), before)
			noPwned(t, "/cerebro:"+name+" "+strings.Join(allowed, " "), s.Project, s.Desk, s.Home, s.State)
		}
	}
}

// TestFirstHour is a new user's first hour on a fresh HOME: `make install`
// (scripts/install) with the real CLI, then the short commands the product
// promised work in -p (/memory_long_active on; /org_ingest with no org
// vault yet), `memhook` is on the PATH through the launcher, arguments
// never reach a shell through the short commands either, the doctor tells
// which copy of the plugin runs with clean paths, and `memhook commands
// remove` leaves nothing of cerebro's and keeps a person's own file.
func TestFirstHour(t *testing.T) {
	s := newSandbox(t)
	s.PluginDir = ""
	s.AllowedTools = ""
	s.Env["CEREBRO_STATE_DIR"] = "" // a real user has none: the documented default applies
	bin := t.TempDir()
	if err := os.Symlink(claudeBin, filepath.Join(bin, "claude")); err != nil {
		t.Fatal(err)
	}
	s.Env["PATH"] = bin + string(os.PathListSeparator) + os.Getenv("PATH")
	commands := filepath.Join(s.Home, ".claude", "commands")
	os.MkdirAll(commands, 0o755)
	mine := "---\ndescription: my own flush\n---\nSay: flushed my way.\n"
	os.WriteFile(filepath.Join(commands, "flush.md"), []byte(mine), 0o644)

	// The person's own Claude Code settings, which install merges into.
	settings := filepath.Join(s.Home, ".claude", "settings.json")
	os.WriteFile(settings, []byte(`{"cleanupPeriodDays": 99, "permissions": {"allow": ["Bash(make test)"]}}`), 0o644)

	out := s.run(filepath.Join(repoRoot, "scripts", "install"))
	launcher := filepath.Join(s.Home, ".local", "bin", "memhook")
	readOnly := []string{mcpPrefix + "memory_search", mcpPrefix + "memory_get"}
	for _, want := range []string{"skipped /flush", "installed the memhook launcher: " + launcher, "is not on your PATH", "export PATH=",
		"memory tools: added " + strings.Join(readOnly, ", ") + " to permissions.allow in " + settings} {
		if !strings.Contains(out, want) {
			t.Errorf("install output lacks %q:\n%s", want, out)
		}
	}
	// Claude Code's own entry (plugin install's enabledPlugins) and the
	// person's keys are kept beside the two rules.
	text := readFile(t, settings)
	for _, want := range append([]string{`"cleanupPeriodDays": 99`, `"Bash(make test)"`, `"cerebro@cerebro": true`}, readOnly...) {
		if !strings.Contains(text, want) {
			t.Errorf("settings.json after install lacks %s:\n%s", want, text)
		}
	}
	s.Env["PATH"] = filepath.Dir(launcher) + string(os.PathListSeparator) + s.Env["PATH"]
	if got := strings.TrimSpace(s.run("sh", "-c", "command -v memhook")); got != launcher {
		t.Errorf("which memhook = %q, want the launcher %s", got, launcher)
	}
	if got := s.run("memhook", "version"); !strings.HasPrefix(got, "memhook version ") {
		t.Errorf("memhook version through the launcher: %q", got)
	}

	before := len(s.Mock.Messages())
	s.Prompt("/memory_long_active on")
	if _, err := os.Stat(filepath.Join(s.LongDir(), "SCHEMA.md")); err != nil {
		t.Fatalf("/memory_long_active on did not lay out long-term memory: %v", err)
	}
	if got := s.commandRan("<command-name>/memory_long_active</command-name>", before); strings.Contains(got, "exited with status") {
		t.Errorf("/memory_long_active on failed:\n%s", got)
	}
	if !strings.Contains(readFile(t, filepath.Join(s.Desk, ".claude", "memory_short", "registry.json")), s.Project) {
		t.Error("the project is not registered on the desk")
	}

	os.WriteFile(filepath.Join(s.Project, "release notes.md"), []byte("# Releases\nWe ship on Tuesdays after the freeze.\n"), 0o644)
	before = len(s.Mock.Messages())
	s.Prompt(`/org_ingest "release notes.md"`)
	got := s.commandRan("<command-name>/org_ingest</command-name>", before)
	if !strings.Contains(got, "created the org vault at "+s.Desk+" on first use") || strings.Contains(got, "exited with status") {
		t.Errorf("/org_ingest on a fresh machine did not create the vault and ingest; the model got:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(s.Desk, "sources", "release notes.md")); err != nil {
		t.Errorf("no source page for the ingested file: %v", err)
	}

	// The read-only memory tools run in -p with what install wrote, with no
	// --allowedTools; remember, which writes, is still refused there.
	r0 := s.Prompt(`TRIGGER_MCP:memory_search {"query":"release notes"}`)
	if text, isErr := s.lastToolResult(r0.SessionID()); isErr || strings.Contains(text, "haven't granted") {
		t.Errorf("memory_search after make install was refused or failed: %s", text)
	}
	r0 = s.Prompt(`TRIGGER_MCP:remember {"text":"we ship on Tuesdays"}`)
	if text, isErr := s.lastToolResult(r0.SessionID()); !isErr || !strings.Contains(text, "haven't granted it yet") {
		t.Errorf("remember ran without a rule allowing it: %s", text)
	}

	// Every short command that runs memhook with arguments, through the
	// installed user-level file.
	for _, name := range cli.ShortCommands {
		if name == "flush" {
			continue // the person's own file
		}
		before := len(s.Mock.Messages())
		r := s.ClaudeMayFail("-p", "/"+name+" "+injection, "--output-format", "stream-json", "--verbose")
		if r.Code != 0 {
			t.Errorf("/%s: exit %d\n%s", name, r.Code, r.Stderr)
		}
		s.commandRan("<command-name>/"+name+"</command-name>", before)
		noPwned(t, "/"+name, s.Project, s.Desk, s.Home)
	}

	// Which copy runs, and clean paths: the installed plugin runs from the
	// checkout (a directory marketplace), and memhook prints it clean.
	before = len(s.Mock.Messages())
	s.Prompt("/cerebro:health")
	got = s.commandRan(commandTag("health"), before)
	if !strings.Contains(got, "plugin cerebro@cerebro runs from "+repoRoot+" (a directory marketplace runs its source folder; the copy in "+filepath.Join(s.Home, ".claude", "plugins", "cache")) || strings.Contains(got, "//") {
		t.Errorf("doctor does not say cleanly which plugin copy runs:\n%s", got)
	}
	if !strings.Contains(got, "state dir "+s.PluginData()+": ok") || !strings.Contains(got, "short commands in "+commands+": 10 installed") || !strings.Contains(got, "left to a person's own file: /flush") {
		t.Errorf("doctor through the plugin reports another state dir or the short commands wrongly:\n%s", got)
	}

	out = s.run("memhook", "commands", "remove")
	if !strings.Contains(out, "removed 10 short commands") {
		t.Errorf("commands remove: %s", out)
	}
	entries, _ := os.ReadDir(commands)
	if len(entries) != 1 || entries[0].Name() != "flush.md" || readFile(t, filepath.Join(commands, "flush.md")) != mine {
		t.Errorf("after remove %s holds %v, want only the person's flush.md, unchanged", commands, entries)
	}
	// Gone: Claude Code either says so (2.1.197: "Unknown command") or
	// sends the words to the model as a plain prompt (2.1.332); either way
	// no command expands and nothing is ingested.
	before = len(s.Mock.Messages())
	r := s.ClaudeMayFail("-p", "/org_ingest x", "--output-format", "json")
	expanded := false
	for _, req := range s.Mock.Messages()[before:] {
		expanded = expanded || strings.Contains(s.Mock.turn(req.JSON()).Text, "<command-name>/org_ingest</command-name>")
	}
	if expanded || !(strings.Contains(r.Stdout+r.Stderr, "Unknown command") || strings.Contains(r.Text(), "MOCK-REPLY: /org_ingest x")) {
		t.Errorf("/org_ingest still runs after remove: %s %s", r.Stdout, r.Stderr)
	}
	out = s.run(filepath.Join(repoRoot, "scripts", "uninstall"))
	if _, err := os.Stat(launcher); err == nil {
		t.Errorf("scripts/uninstall left the launcher %s", launcher)
	}
	text = readFile(t, settings)
	if !strings.Contains(out, "removed "+strings.Join(readOnly, ", ")) || strings.Contains(text, mcpPrefix) ||
		!strings.Contains(text, `"Bash(make test)"`) || !strings.Contains(text, `"cleanupPeriodDays": 99`) {
		t.Errorf("uninstall did not take out exactly the two rules:\n%s\nsettings.json:\n%s", out, text)
	}
}

// run runs a program in the project with the sandbox's environment and
// returns its combined output; a non-zero exit fails the test.
func (s *Sandbox) run(name string, args ...string) string {
	s.t.Helper()
	env := s.environ()
	path := name
	if !strings.Contains(name, "/") {
		// Looked up in the sandbox's PATH, not the test's.
		for _, kv := range env {
			if p, ok := strings.CutPrefix(kv, "PATH="); ok {
				if found, err := lookIn(p, name); err == nil {
					path = found
				}
			}
		}
	}
	cmd := exec.Command(path, args...)
	cmd.Dir = s.Project
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		s.t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

func lookIn(path, name string) (string, error) {
	for _, d := range filepath.SplitList(path) {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", os.ErrNotExist
}

// TestNoBuiltinShadowed reads the built-in commands from the real CLI —
// the names (and aliases) its bundle defines for its commands and bundled
// skills, and the slash commands system/init lists — and fails when a
// cerebro skill, command or short command takes one of those names, or
// when /memory in the real CLI runs cerebro's skill. Names the CLI has
// that the unit test's list (internal/cli/testdata/claude-code-builtins.txt)
// lacks are a newer Claude Code's, harmless until one clashes: they are
// printed (make e2e-latest shows them), and the list takes them up when
// the pin moves.
func TestNoBuiltinShadowed(t *testing.T) {
	s := newSandbox(t)
	builtins := map[string]bool{}
	f, err := os.Open(claudeBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	// A command object ({type:"local",name:"usage",aliases:["cost"]}) and a
	// bundled skill's registration (…({name:"doctor",…,aliases:[…]})).
	defs := []*regexp.Regexp{
		regexp.MustCompile(`type:"(?:local-jsx|local|prompt)",name:"([a-z][a-z0-9-]*)"(?:,aliases:\[([^\]]*)\])?`),
		regexp.MustCompile(`\(\{name:"([a-z][a-z0-9-]*)",[^}]{0,300}?(?:isEnabled|userInvocable|whenToUse|aliases|description)`),
	}
	quoted := regexp.MustCompile(`"([a-z][a-z0-9-]*)"`)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	sc.Split(scanChunks)
	for sc.Scan() {
		for _, def := range defs {
			for _, m := range def.FindAllSubmatch(sc.Bytes(), -1) {
				builtins[string(m[1])] = true
				if len(m) > 2 {
					for _, a := range quoted.FindAllSubmatch(m[2], -1) {
						builtins[string(a[1])] = true
					}
				}
			}
		}
	}
	f.Close()
	r := s.Prompt("hello")
	for _, c := range r.Init().Get("slash_commands").Array() {
		if n := c.String(); !strings.Contains(n, ":") {
			builtins[n] = true
		}
	}
	if !builtins["memory"] || !builtins["compact"] || !builtins["doctor"] || len(builtins) < 60 {
		t.Fatalf("read %d built-ins from the CLI; the extraction is broken", len(builtins))
	}
	pinned := map[string]bool{}
	for _, l := range strings.Split(readFile(t, filepath.Join(repoRoot, "internal", "cli", "testdata", "claude-code-builtins.txt")), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			pinned[l] = true
		}
	}
	var newer []string
	for n := range builtins {
		if !pinned[n] {
			newer = append(newer, n)
		}
	}
	sort.Strings(newer)
	if len(newer) > 0 {
		fmt.Printf("e2e: %s defines %d built-in names the unit test's list lacks (none clashes unless reported below): %s\n", claudeVersion(), len(newer), strings.Join(newer, " "))
	}
	names := append([]string{}, cli.ShortCommands...)
	cmds, _ := filepath.Glob(filepath.Join(repoRoot, "commands", "*.md"))
	for _, c := range cmds {
		names = append(names, strings.TrimSuffix(filepath.Base(c), ".md"))
	}
	skills, _ := os.ReadDir(filepath.Join(repoRoot, "skills"))
	for _, d := range skills {
		names = append(names, d.Name())
	}
	for _, n := range names {
		if builtins[n] {
			t.Errorf("cerebro's %q shadows Claude Code's built-in /%s", n, n)
		}
	}
	before := len(s.Mock.Messages())
	s.ClaudeMayFail("-p", "/memory", "--output-format", "json", "--plugin-dir", repoRoot)
	for _, req := range s.Mock.Messages()[before:] {
		if strings.Contains(string(req.Body), "Memory is a black box") {
			t.Error("/memory ran cerebro's skill instead of Claude Code's built-in")
		}
	}
}

// claudeBinary is the native executable behind CLAUDE_BIN (a symlink to
// the npm package's claude.exe).
func claudeBinary(t *testing.T) string {
	p, err := filepath.EvalSymlinks(claudeBin)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// scanChunks splits a binary into 1 MiB chunks overlapping by 256 bytes,
// so that a definition across a boundary is still seen whole.
func scanChunks(data []byte, atEOF bool) (int, []byte, error) {
	const chunk, overlap = 1 << 20, 256
	if len(data) >= chunk+overlap {
		return chunk, data[:chunk+overlap], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}
