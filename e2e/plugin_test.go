//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/text/frontmatter"
)

func TestValidateStrict(t *testing.T) {
	s := newSandbox(t)
	r := s.ClaudeMayFail("plugin", "validate", "--strict", repoRoot)
	if r.Code != 0 {
		t.Fatalf("claude plugin validate --strict %s: exit %d\n%s%s", repoRoot, r.Code, r.Stdout, r.Stderr)
	}
	// The plugin directory's checks do not change the exit code; a listing
	// would still show their warnings (no icon, hosts not declared).
	out := r.Stdout + r.Stderr
	for _, bad := range []string{"plugin directory warning", "Hosts not declared"} {
		if strings.Contains(out, bad) {
			t.Errorf("claude plugin validate reports %q:\n%s", bad, out)
		}
	}
}

// TestHooksRunInASession runs a session with a tool call and checks every
// cerebro hook ran, exited 0 and stayed within its timeout.
func TestHooksRunInASession(t *testing.T) {
	s := newSandbox(t)
	r := s.Prompt("please run a command TRIGGER_BASH")
	if got := r.Text(); got != "MOCK-REPLY after tool" {
		t.Fatalf("final reply %q; the Bash tool call did not complete\n%s", got, r.Stderr)
	}
	runs := memhookRuns(s.checkHooks())
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "Stop", "SessionEnd"} {
		if runs[ev] != 1 {
			t.Errorf("memhook ran %d times for %s, want 1 (runs: %v)", runs[ev], ev, runs)
		}
	}
}

// pluginEntries lists the repository's commands and skills as Claude Code
// names them (cerebro:<name>) with their descriptions; the ones marked
// disable-model-invocation (a person's, never offered to the model) go to
// personOnly as well.
func pluginEntries(t *testing.T) (commands, skills map[string]string) {
	t.Helper()
	commands, skills = map[string]string{}, map[string]string{}
	read := func(glob string, name func(string) string, into map[string]string) {
		paths, _ := filepath.Glob(filepath.Join(repoRoot, glob))
		for _, p := range paths {
			var meta struct {
				Name        string `yaml:"name"`
				Description string `yaml:"description"`
				PersonOnly  bool   `yaml:"disable-model-invocation"`
			}
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := frontmatter.Parse(data, &meta); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			into["cerebro:"+name(p)] = meta.Description
			if meta.PersonOnly {
				personOnly["cerebro:"+name(p)] = true
			}
		}
	}
	read("commands/*.md", func(p string) string { return strings.TrimSuffix(filepath.Base(p), ".md") }, commands)
	read("skills/*/SKILL.md", func(p string) string { return filepath.Base(filepath.Dir(p)) }, skills)
	if len(commands) == 0 {
		t.Fatal("the plugin ships no commands/*.md")
	}
	return commands, skills
}

// personOnly are the commands marked disable-model-invocation, filled by
// pluginEntries: the person's actions (a verdict on the model's own run,
// the browser, the desk's dashboard) and /cerebro:recall, which the
// use-memory skill offers the model already.
var personOnly = map[string]bool{}

// TestCommandsAndSkillsListed checks Claude Code loads every command and
// skill of the plugin and lists each, with its description, to the model,
// except the person's commands, which it lists to nobody but the person.
func TestCommandsAndSkillsListed(t *testing.T) {
	commands, skills := pluginEntries(t)
	s := newSandbox(t)
	r := s.Prompt("hello")
	init := r.Init()
	if !strings.Contains(init.Get("plugins").Raw, "cerebro") {
		t.Errorf("system/init lists plugins %s, want cerebro", init.Get("plugins").Raw)
	}
	listed := init.Get("slash_commands").Raw + init.Get("skills").Raw
	reqs := s.Mock.Messages()
	if len(reqs) == 0 {
		t.Fatal("no request reached the mock")
	}
	first := string(reqs[0].Body)
	for _, set := range []map[string]string{commands, skills} {
		for name, desc := range set {
			if !strings.Contains(listed, `"`+name+`"`) {
				t.Errorf("%s is not in system/init's slash_commands or skills: %s", name, listed)
			}
			if desc == "" {
				t.Errorf("%s has no description", name)
			} else if personOnly[name] {
				// disable-model-invocation: the person's command (a verdict
				// on the model's own run) is never offered to the model.
				if strings.Contains(first, jsonEscape(desc[:min(40, len(desc))])) {
					t.Errorf("the model's first request lists the person-only %s", name)
				}
			} else if !strings.Contains(first, name) || !strings.Contains(first, jsonEscape(desc[:min(40, len(desc))])) {
				t.Errorf("the model's first request does not list %s with its description %q", name, desc)
			}
		}
	}
}

// jsonEscape makes s comparable with text inside a JSON request body.
func jsonEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s)
}

// TestInstallFromMarketplace installs the plugin the way a user does, from
// the repository as a marketplace, and checks the installed hooks run.
func TestInstallFromMarketplace(t *testing.T) {
	s := newSandbox(t)
	s.PluginDir = ""
	s.Claude("plugin", "marketplace", "add", repoRoot)
	s.Claude("plugin", "install", "cerebro@cerebro")
	r := s.Prompt("hello from an installed plugin")
	if plugins := r.Init().Get("plugins").Raw; !strings.Contains(plugins, "cerebro") {
		t.Fatalf("system/init lists plugins %s, want the installed cerebro", plugins)
	}
	runs := memhookRuns(s.checkHooks())
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "Stop", "SessionEnd"} {
		if runs[ev] != 1 {
			t.Errorf("the installed plugin's memhook ran %d times for %s, want 1 (runs %v)", runs[ev], ev, runs)
		}
	}
}

// TestToolsSubagentAndWrite runs a Write tool call, a subagent and a model
// call of each plugin skill through a session: the file is written, the
// skills launch, and cerebro's hooks stay healthy around tool use.
func TestToolsSubagentAndWrite(t *testing.T) {
	s := newSandbox(t)
	target := filepath.Join(s.Project, "notes", "plan.md")
	id := newSessionID(t)
	s.Prompt("Write the plan TRIGGER_WRITE:"+target+":first step is the schema", "--session-id", id)
	if got := readFile(t, target); got != "first step is the schema\n" {
		t.Errorf("the Write tool call wrote %q", got)
	}
	r := s.Prompt("Delegate this TRIGGER_AGENT", "--resume", id)
	// The turn that called the Agent ends on its tool result; a Claude Code
	// that runs the subagent in the background then adds the turn of its
	// <task-notification>, which the mock answers as such.
	var results []string
	for _, l := range r.Lines() {
		if l.Get("type").String() == "result" {
			results = append(results, l.Get("result").String())
		}
	}
	if !slices.Contains(results, "MOCK-REPLY after tool") {
		t.Errorf("the subagent turn ended with %q", results)
	}
	var sub bool
	for _, req := range s.Mock.Messages() {
		sub = sub || strings.Contains(string(req.Body), "Say hello from the subagent.")
	}
	if !sub {
		t.Error("no subagent request reached the mock")
	}
	_, skills := pluginEntries(t)
	for name := range skills {
		s.Prompt("Use the skill TRIGGER_SKILL:"+name, "--resume", id)
		last := s.Mock.Messages()
		body := string(last[len(last)-1].Body)
		if !strings.Contains(body, "Launching skill: "+name) {
			t.Errorf("the model's call of skill %s did not launch it", name)
		}
	}
	// One SessionStart per process, one Stop per main-thread turn: the
	// turns the person started, plus, since Claude Code runs an Agent call
	// in the background (2.1.2xx), the turn its result starts as a
	// <task-notification>. A subagent's own end is a SubagentStop, never
	// the main thread's Stop.
	notified := 0
	for _, rec := range s.Transcript(id) {
		if rec.Get("type").String() == "user" && (rec.Get("origin.kind").String() == "task-notification" ||
			strings.HasPrefix(strings.TrimSpace(rec.Get("message.content").String()), "<task-notification>")) {
			notified++
		}
	}
	log := s.checkHooks()
	runs := memhookRuns(log)
	// A Stop a subagent's turn fired, should Claude Code send one, is
	// memhook's to skip (logged so), not the main thread's.
	subStops := 0
	for _, e := range log {
		if e.Get("event").String() == "stop" && strings.Contains(e.Get("message").String(), "a subagent's stop") {
			subStops++
		}
	}
	if want := 2 + len(skills); runs["Stop"]-subStops != want+notified || runs["SessionStart"] != want {
		t.Errorf("memhook runs %v (%d of them a subagent's Stop), want %d SessionStart and %d main-thread Stop (%d turns of the person, %d of a subagent's result)",
			runs, subStops, want, want+notified, want, notified)
	}
	// The notification is no request of the person's.
	if daily := s.Daily(); !strings.Contains(daily, "Delegate this") || strings.Contains(daily, "task-notification") || strings.Contains(daily, "Say hello from the subagent") {
		t.Errorf("the daily file lacks the person's request or takes a subagent's prompt or result for the person's dialogue:\n%s", daily)
	}
}
