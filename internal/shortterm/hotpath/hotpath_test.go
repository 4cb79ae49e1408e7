package hotpath

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/hook"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/shortterm/capture"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// handed is what memhook would have been started with.
type handed struct {
	args  []string
	env   []string
	stdin []byte
}

// record is the hand-over memhook would read: exactly one variable, whole.
func (h handed) record(t *testing.T) (hook.Handed, bool) {
	t.Helper()
	var got []string
	for _, kv := range h.env {
		if v, ok := strings.CutPrefix(kv, hook.HandOverEnv+"="); ok {
			got = append(got, v)
		}
	}
	if len(got) == 0 {
		return hook.Handed{}, false
	}
	var rec hook.Handed
	if err := json.Unmarshal([]byte(got[0]), &rec); len(got) != 1 || err != nil {
		t.Fatalf("hand-over variables %q (%v), want one record", got, err)
	}
	return rec, true
}

type fixture struct {
	runErr  error // what starting memhook returns
	env     map[string]string
	inherit []string // the environment memhook-hot was started with, beside PATH
	proj    string
	calls   []handed
	out     bytes.Buffer
}

func newFixture(t *testing.T) *fixture {
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	os.MkdirAll(filepath.Join(proj, ".git"), 0o755)
	return &fixture{proj: proj, env: map[string]string{
		"HOME": dir, "CEREBRO_STATE_DIR": filepath.Join(dir, "state"), "CEREBRO_HOME": filepath.Join(dir, "cerebro"),
		"CEREBRO_CONFIG": filepath.Join(dir, "none.toml"), "CEREBRO_SHORT_FLUSH_REPLIES": "4",
	}}
}

func (f *fixture) input(session, event string, kv ...string) string {
	return testfile.HookInput(f.proj, session, event, kv...)
}

func (f *fixture) run(t *testing.T, stdin string, args ...string) int {
	t.Helper()
	var errOut bytes.Buffer
	sys := System{
		In: strings.NewReader(stdin), Out: &f.out, Err: &errOut,
		Getenv:  func(k string) string { return f.env[k] },
		Environ: func() []string { return append([]string{"PATH=/bin"}, f.inherit...) },
		Now:     time.Now, Memhook: "/plugin/bin/memhook",
		Run: func(memhook string, args, env []string, stdin []byte, sys System) error {
			if memhook != "/plugin/bin/memhook" {
				t.Errorf("memhook is %q", memhook)
			}
			f.calls = append(f.calls, handed{args, env, stdin})
			return f.runErr
		},
	}
	return Main(args, sys)
}

func (f *fixture) root() string {
	paths := config.ResolvePaths(func(k string) string { return f.env[k] })
	root, _ := project.RootFor(f.proj, paths.Home)
	return root
}

func (f *fixture) session(id string) *capture.Session {
	paths := config.ResolvePaths(func(k string) string { return f.env[k] })
	return capture.Store{Root: paths.Sessions()}.Session(project.ID(f.root()), id)
}

func (f *fixture) journal(t *testing.T, id string) []capture.Entry {
	entries, _, err := f.session(id).ReadJournal(0)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

func (f *fixture) log(t *testing.T) []runlog.Entry {
	return testfile.HookLog(t, f.env["CEREBRO_STATE_DIR"])
}

func TestTurnsAreCapturedWithoutMemhook(t *testing.T) {
	f := newFixture(t)
	f.run(t, f.input("s1", "UserPromptSubmit", "prompt", "rename the flag"), "hook", "user-prompt-submit")
	f.run(t, f.input("s1", "Stop", "last_assistant_message", "Renamed it."), "hook", "stop")
	if len(f.calls) != 0 {
		t.Fatalf("memhook was started: %+v", f.calls)
	}
	got := f.journal(t, "s1")
	if len(got) != 2 || got[0].Text != "rename the flag" || got[1].Role != "assistant" || got[1].Text != "Renamed it." {
		t.Fatalf("journal %+v", got)
	}
	if f.out.Len() != 0 {
		t.Fatalf("stdout %q", f.out.String())
	}
}

func TestDueFlushIsHandedOverCaptured(t *testing.T) {
	f := newFixture(t)
	for i := range 2 {
		f.run(t, f.input("s1", "UserPromptSubmit", "prompt", fmt.Sprintf("question %d", i)), "hook", "user-prompt-submit")
		f.run(t, f.input("s1", "Stop", "last_assistant_message", fmt.Sprintf("answer %d", i)), "hook", "stop")
	}
	// Four replies with short.flush_replies 4: the second Stop is due.
	if len(f.calls) != 1 {
		t.Fatalf("%d hand-overs, want 1", len(f.calls))
	}
	c := f.calls[0]
	if strings.Join(c.args, " ") != "hook stop" {
		t.Fatalf("args %q", c.args)
	}
	rec, ok := c.record(t)
	want := hook.Handed{Reason: "flush due", Session: "s1", Root: f.root(), Captured: true, FlushDue: true}
	if !ok || rec != want || !strings.Contains(strings.Join(c.env, "\n"), "PATH=/bin") {
		t.Fatalf("handed %+v, want %+v; env %q", rec, want, c.env)
	}
	// The message is in the journal: memhook is handed the input without it.
	in, err := hook.Decode(bytes.NewReader(c.stdin))
	if err != nil || in.SessionID != "s1" || in.CWD != f.proj || in.Event != "Stop" || in.LastAssistantMessage != "" || strings.Contains(string(c.stdin), "answer 1") {
		t.Fatalf("stdin %q (%v)", c.stdin, err)
	}
	if n := len(f.journal(t, "s1")); n != 4 {
		t.Fatalf("journal has %d entries, want 4 (memhook must not capture again)", n)
	}
	// The event's one log entry is memhook's: this one wrote none.
	if n := len(f.log(t)); n != 3 {
		t.Fatalf("%d log entries, want 3 (the handed-over Stop is memhook's to log)", n)
	}
}

func TestAutoRecallIsMemhooks(t *testing.T) {
	f := newFixture(t)
	f.env["CEREBRO_SEARCH_AUTO_RECALL"] = "true"
	f.run(t, f.input("s1", "UserPromptSubmit", "prompt", "/cerebro:flush"), "hook", "user-prompt-submit")
	if len(f.calls) != 0 {
		t.Fatal("a slash command was handed over for auto-recall")
	}
	f.run(t, f.input("s1", "UserPromptSubmit", "prompt", "where is the flag parsed?"), "hook", "user-prompt-submit")
	if len(f.calls) != 1 {
		t.Fatalf("hand-overs %+v", f.calls)
	}
	if rec, _ := f.calls[0].record(t); !rec.Captured || rec.Reason != "auto-recall" || string(f.calls[0].stdin) != f.input("s1", "UserPromptSubmit", "prompt", "where is the flag parsed?") {
		t.Fatalf("handed %+v with stdin %q, want the captured prompt's whole input", rec, f.calls[0].stdin)
	}
	if n := len(f.journal(t, "s1")); n != 2 {
		t.Fatalf("journal has %d entries, want 2", n)
	}
}

func TestSkillTurnEndIsMemhooks(t *testing.T) {
	f := newFixture(t)
	paths := config.ResolvePaths(func(k string) string { return f.env[k] })
	root, _ := project.RootFor(f.proj, paths.Home)
	marker := paths.OpenTurn(project.ID(root), "s1")
	os.MkdirAll(filepath.Dir(marker), 0o700)
	os.WriteFile(marker, []byte("run1 1"), 0o600)
	// A hand-over memhook-hot inherited (a process a hook started) is
	// replaced, never handed on beside its own.
	f.inherit = []string{hook.Handed{Reason: "flush due", Session: "s1", Root: "/", Captured: true, FlushDue: true}.Env()}
	f.run(t, f.input("s1", "Stop", "last_assistant_message", "done"), "hook", "stop")
	if len(f.calls) != 1 {
		t.Fatalf("%d hand-overs, want 1", len(f.calls))
	}
	want := hook.Handed{Reason: "a skill's turn ends", Session: "s1", Root: root, Captured: true, TurnOpen: true}
	if rec, _ := f.calls[0].record(t); rec != want {
		t.Fatalf("handed %+v, want %+v", rec, want)
	}
}

func TestOtherEventsGoToMemhookUnread(t *testing.T) {
	f := newFixture(t)
	in := f.input("s1", "SessionStart", "source", "startup")
	var stdin bytes.Buffer
	stdin.WriteString(in)
	sys := System{In: &stdin, Getenv: func(k string) string { return f.env[k] }, Environ: func() []string { return nil },
		Now: time.Now, Memhook: "memhook", Run: func(_ string, args, _ []string, data []byte, sys System) error {
			f.calls = append(f.calls, handed{args: args, stdin: data})
			return nil
		}}
	Main([]string{"hook", "session-start"}, sys)
	if len(f.calls) != 1 || f.calls[0].stdin != nil || stdin.String() != in {
		t.Fatalf("session-start: %+v, stdin left %q", f.calls, stdin.String())
	}
}

func TestNestedAndBrokenInputDoNothing(t *testing.T) {
	f := newFixture(t)
	f.env["CEREBRO_NESTED"] = "1"
	if code := f.run(t, f.input("s1", "Stop", "last_assistant_message", "x"), "hook", "stop"); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if len(f.journal(t, "s1")) != 0 || len(f.calls) != 0 {
		t.Fatal("a nested session captured")
	}
	delete(f.env, "CEREBRO_NESTED")
	if code := f.run(t, "{not json", "hook", "stop"); code != 0 || len(f.calls) != 0 {
		t.Fatalf("broken input: exit %d, %d hand-overs", code, len(f.calls))
	}
	if code := f.run(t, "", "version"); code != 2 {
		t.Fatalf("a command that is not a hook: exit %d, want 2", code)
	}
}

func TestToolsAreLeftAloneButSkills(t *testing.T) {
	f := newFixture(t)
	post := func(tool, input string) []handed {
		f.calls = nil
		in := fmt.Sprintf(`{"session_id":"s1","cwd":%q,"hook_event_name":"PostToolUse","tool_name":%q,"tool_input":%s}`, f.proj, tool, input)
		f.run(t, in, "hook", "post-tool-use")
		return f.calls
	}
	for _, tc := range []struct{ tool, input string }{
		{"Bash", `{"command":"go test ./..."}`},
		{"Edit", `{"file_path":"main.go"}`},
		{"Write", `{"file_path":"` + filepath.Join(f.proj, "docs", "skills.md") + `"}`},
	} {
		if got := post(tc.tool, tc.input); len(got) != 0 {
			t.Errorf("%s %s was handed over", tc.tool, tc.input)
		}
	}
	for _, tc := range []struct{ tool, input string }{
		{"Edit", `{"file_path":".claude/skills/use-tables/SKILL.md"}`},
		{"Skill", `{"skill":"cerebro:relearn"}`},
	} {
		got := post(tc.tool, tc.input)
		if len(got) != 1 || strings.Join(got[0].args, " ") != "hook post-tool-use" || !strings.Contains(string(got[0].stdin), tc.input) {
			t.Fatalf("%s %s: hand-overs %+v, want the whole event", tc.tool, tc.input, got)
		}
		if rec, _ := got[0].record(t); rec.Captured {
			t.Fatalf("%s: handed over as captured", tc.tool)
		}
	}
	// Every tool of a turn a skill drives is recorded by memhook.
	paths := config.ResolvePaths(func(k string) string { return f.env[k] })
	root, _ := project.RootFor(f.proj, paths.Home)
	marker := paths.OpenTurn(project.ID(root), "s1")
	os.MkdirAll(filepath.Dir(marker), 0o700)
	os.WriteFile(marker, []byte("run1 1"), 0o600)
	if got := post("Bash", `{"command":"memhook recall x"}`); len(got) != 1 {
		t.Fatalf("a tool of a skill's turn: %d hand-overs, want 1", len(got))
	}
}

// A hand-over that cannot start memhook (missing from the plugin) keeps
// the capture, exits 0 and says why in the log.
func TestFailedHandOverIsLogged(t *testing.T) {
	f := newFixture(t)
	f.runErr = errors.New("fork/exec /plugin/bin/memhook: no such file or directory")
	for i := range 2 {
		f.run(t, f.input("s1", "UserPromptSubmit", "prompt", fmt.Sprintf("question %d", i)), "hook", "user-prompt-submit")
		if code := f.run(t, f.input("s1", "Stop", "last_assistant_message", fmt.Sprintf("answer %d", i)), "hook", "stop"); code != 0 {
			t.Fatalf("exit %d", code)
		}
	}
	if n := len(f.journal(t, "s1")); n != 4 {
		t.Fatalf("journal has %d entries, want 4", n)
	}
	entries := f.log(t)
	last := entries[len(entries)-1]
	if last.Event != "stop" || last.Level != "error" || !strings.Contains(last.Message, "no such file") {
		t.Fatalf("last log entry %+v", last)
	}
}
